import type { ActorRefFrom } from 'xstate';
import type { faucetMachine, HumanCheckWidget } from '../../../machines/faucet/faucet.machine.ts';

/** What each human check is given: the widget to show, and the faucet actor it tells its result. */
export type HumanCheckProps = { widget: HumanCheckWidget; faucet: ActorRefFrom<typeof faucetMachine> };

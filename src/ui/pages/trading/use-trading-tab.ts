import type { TradingTab } from '../../settings-context.tsx';
import { useTabActor, type TabActorState } from '../use-tab-actor.ts';

export type TradingActor = TradingTab['actor'];

/** The DEX Trading tab's actor while the tab is shown (use-tab-actor.ts). */
export const useTradingTab: (start: () => Promise<TradingTab>) => TabActorState<TradingActor> = useTabActor;

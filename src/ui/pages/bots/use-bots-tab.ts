import type { BotsTab } from '../../settings-context.tsx';
import { useTabActor, type TabActorState } from '../use-tab-actor.ts';

export type BotsActor = BotsTab['actor'];

/** The Trading Bots tab's actor while the tab is shown (use-tab-actor.ts). */
export const useBotsTab: (start: () => Promise<BotsTab>) => TabActorState<BotsActor> = useTabActor;

import { fromCallback, fromPromise, type AnyActorRef, type EventObject } from 'xstate';
import { RUNS_PER_BOT, RUNS_READ } from '../domain/bots.ts';
import { botsMachine, type BotsFeedEvent } from '../machines/bots.machine.ts';
import type { ToastRequest } from '../machines/shared.ts';
import type { BotsService } from '../services/bots/types.ts';

// The Trading Bots tab's composition root (docs/product.md#trading-bots), loaded with the tab: turns
// the bots service into the actors the bots machine declares. The bots actor has a system of its
// own, so its toasts are sent to the portal's toast actor through the portal's system.

export type BotsServices = {
  bots: BotsService;
  /** The portal's system, where the toast actor lives. */
  portal: { get(systemId: string): AnyActorRef | undefined };
};

export function provideBots({ bots, portal }: BotsServices) {
  return botsMachine.provide({
    actors: {
      loadBots: fromPromise(async ({ input }) => {
        const [list, runs] = await Promise.all([
          bots.listBots(input.userId),
          bots.listRuns(input.userId, { limit: RUNS_READ, perBot: RUNS_PER_BOT }),
        ]);
        return { bots: list, runs };
      }),
      saveBot: fromPromise(({ input }) =>
        input.id === null ? bots.createBot(input.fields) : bots.updateBot(input.id, input.fields),
      ),
      setBotStatus: fromPromise(({ input }) => bots.setStatus(input.id, input.status)),
      deleteBot: fromPromise(({ input }) => bots.deleteBot(input.id)),
      botsFeed: fromCallback<EventObject, { userId: string }>(({ input, sendBack }) =>
        bots.subscribeBots(
          input.userId,
          (change) => sendBack({ type: 'bots.changed', table: change.table } satisfies BotsFeedEvent),
          (status) => sendBack({ type: 'bots.feedStatus', status } satisfies BotsFeedEvent),
        ),
      ),
    },
    actions: {
      // Straight to the portal's toast actor, so its journal records the toast as any other.
      showToast: (_, params: ToastRequest) =>
        portal.get('toast')?.send({ type: 'toast.show', toast: params }),
    },
  });
}

import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { RUNS_PER_BOT, RUNS_READ } from '../domain/bots.ts';
import { botsMachine, type BotsFeedEvent } from '../machines/bots/bots.machine.ts';
import type { BotsService } from '../services/bots/types.ts';

// The Trading Bots tab's composition root (docs/product.md#trading-bots), loaded with the tab: turns
// the bots service into the actors the bots machine declares. The portal's root spawns the result
// while the tab is shown.

export type BotsServices = { bots: BotsService };

export function provideBots({ bots }: BotsServices) {
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
  });
}

import { assign } from 'xstate';
import { listRegion } from './bots.list.ts';
import { botsSetup, botsTags, freshContext, MAX_FAILURES } from './bots.setup.ts';

// The Trading Bots tab (docs/product.md#trading-bots), spawned by the portal's root while the tab
// is shown (portal.tabs.ts). A signed-in user's bots watch the DDEX/WETH market on the server and notify their
// owner; here the user lists them with their newest runs, creates, edits, pauses, resumes and
// deletes them. A visitor is asked to log in.
//
//   signedOut ⇄ active (session.changed; another user starts active afresh)
//   active.list: loading → ready | failed (tries again after 1, 2, 5, then every 10 s, or at once
//                on 'Try Again'); ready: idle, editing → saving, toggling, confirmingDelete →
//                deleting, refreshing
//   active.feed: connected.subscribing → connected.live; lost → waiting (the same back-off) → again
//
// One operation at a time: a view offers the list's buttons only in `idle` (or `refreshing`, which
// a button interrupts). A change the feed announces marks the list stale; it is read again as soon
// as the list is idle, so an open form is never reset under the user. Each (re)subscribe marks it
// stale too: rows written while the feed was not up never reached it. The bots' firings reach the
// user as notifications (the portal's own feed and toast), not from here.

export type {
  BotsContext,
  BotsEvent,
  BotsFeedEvent,
  BotsInput,
  BotsLoad,
  BotFieldEvent,
} from './bots-types.ts';

export { botsTags } from './bots.setup.ts';

export const botsMachine = botsSetup.createMachine({
  id: 'bots',
  context: ({ input }) => freshContext(input.userId),
  initial: 'routing',
  states: {
    routing: { always: [{ guard: 'hasUser', target: 'active' }, { target: 'signedOut' }] },
    signedOut: {
      tags: [botsTags.signedOut],
      entry: 'forget',
      on: { 'session.changed': { guard: 'signsIn', target: 'active', actions: 'takeUser' } },
    },
    active: {
      type: 'parallel',
      on: {
        'session.changed': [
          { guard: 'signsOut', target: 'signedOut' },
          { guard: 'otherUser', target: 'active', reenter: true, actions: 'takeUser' },
        ],
      },
      states: {
        list: listRegion,
        feed: {
          initial: 'connected',
          states: {
            connected: {
              invoke: {
                id: 'botsFeed',
                src: 'botsFeed',
                input: ({ context }) => ({ userId: context.userId ?? '' }),
                onError: 'waiting',
              },
              on: { 'bots.feedStatus': { guard: 'feedLost', target: 'waiting' } },
              initial: 'subscribing',
              states: {
                subscribing: {
                  on: {
                    'bots.feedStatus': {
                      guard: 'feedSubscribed',
                      target: 'live',
                      actions: assign({ feedFailures: 0 }),
                    },
                  },
                },
                live: {},
              },
            },
            /** Leaving `connected` stopped the feed (it unsubscribes); it is subscribed afresh after the wait. */
            waiting: {
              tags: [botsTags.reconnecting],
              entry: assign({
                feedFailures: ({ context }) => Math.min(context.feedFailures + 1, MAX_FAILURES),
              }),
              after: { feedRetry: 'connected' },
            },
          },
        },
      },
    },
  },
});

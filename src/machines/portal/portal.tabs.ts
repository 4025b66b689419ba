import { assign, stopChild } from 'xstate';
import { portalSetup } from './portal.setup.ts';

// The root's `tabActors` region: the DEX Trading and Trading Bots tabs each have a root actor of
// their own, whose code loads with the tab (src/main.tsx provides `loadTrading` and `loadBots`).
// While its tab is shown the actor is a child of the root, in the portal's one actor system: the
// journal, replay, the developer panel and `?inspect` see it, it is told the session and the
// wallet as every other child is, and it reports its facts to the root. Leaving the tab stops it.

const leaving = (tab: 'trading' | 'bots') =>
  ({ guard: { type: 'leaves', params: { tab } }, target: 'none' }) as const;

export const tabActorsRegion = portalSetup.createStateConfig({
  initial: 'none',
  states: {
    none: {
      on: {
        'tab.shown': [
          { guard: { type: 'opens', params: { tab: 'trading' } }, target: 'trading' },
          { guard: { type: 'opens', params: { tab: 'bots' } }, target: 'bots' },
        ],
      },
    },
    trading: {
      on: {
        'tab.shown': [
          { guard: { type: 'opens', params: { tab: 'bots' } }, target: 'bots' },
          leaving('trading'),
        ],
      },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadTrading',
            src: 'loadTrading',
            onDone: {
              target: 'running',
              actions: assign({
                trading: ({ context, event, spawn }) =>
                  spawn(event.output, {
                    systemId: 'trading',
                    input: {
                      expectedChainId: context.config.expectedChain.id,
                      account: context.walletAddress,
                      chainId: context.walletChainId,
                      signedIn: context.user !== null,
                    },
                  }),
              }),
            },
            onError: 'failed',
          },
        },
        running: { exit: [stopChild(({ context }) => context.trading ?? ''), assign({ trading: null })] },
        /** Its code could not be fetched; coming back to the tab later tries again. */
        failed: {},
      },
    },
    bots: {
      on: {
        'tab.shown': [
          { guard: { type: 'opens', params: { tab: 'trading' } }, target: 'trading' },
          leaving('bots'),
        ],
      },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadBots',
            src: 'loadBots',
            onDone: {
              target: 'running',
              actions: assign({
                bots: ({ context, event, spawn }) =>
                  spawn(event.output, {
                    systemId: 'bots',
                    input: { userId: context.user?.id ?? null },
                  }),
              }),
            },
            onError: 'failed',
          },
        },
        running: { exit: [stopChild(({ context }) => context.bots ?? ''), assign({ bots: null })] },
        /** Its code could not be fetched; coming back to the tab later tries again. */
        failed: {},
      },
    },
  },
});

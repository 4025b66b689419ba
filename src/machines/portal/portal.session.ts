import { assign, stopChild } from 'xstate';
import { transactionCopy } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import { portalSetup, tell } from './portal.setup.ts';

// The root's `session` region: who is signed in. Profile, notifications and transactions exist only
// while a user is: they are invoked in `signedIn` with that user and stopped on sign-out, so nothing
// of one session survives into the next. The faucet's actor too: its code loads with the session
// (src/app/faucet.ts), then the root spawns it into the system, and stops it with the session.

const followWallet = ['followWallet', 'tellWalletWatchers'] as const;
const followAndLink = [...followWallet, 'tellProfileWallet'] as const;
/** The profile is read again: the server changed it (a swap's activity, an unsubscribe link). */
const readProfileAgain = tell('profile', ({ context }) => ({
  type: 'session.userUpdated',
  user: context.user as AuthUser,
}));

export const sessionRegion = portalSetup.createStateConfig({
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        // A stored session: the user is signed in from the start.
        'auth.ready': {
          guard: ({ event }) => event.user !== null,
          target: 'signedIn',
          actions: assign({ user: ({ event }) => event.user }),
        },
        'auth.signedIn': { target: 'signedIn', actions: assign({ user: ({ event }) => event.user }) },
        'wallet.connected': { actions: followWallet },
        'wallet.accountChanged': { actions: followWallet },
        'wallet.disconnected': { actions: followWallet },
        'wallet.chainChanged': { actions: followWallet },
        'send.transferSubmitted': { actions: 'refreshBalances' },
        // The history needs an account: say so instead of an empty list.
        'dialogs.opened': {
          guard: ({ event }) => event.dialog === 'transactions',
          actions: {
            type: 'showToast',
            params: { ...transactionCopy.loginRequired, variant: 'destructive' },
          },
        },
      },
    },
    signedIn: {
      entry: 'tellSessionWatchers',
      exit: [
        stopChild(({ context }) => context.faucet ?? ''),
        assign({ user: null, faucet: null }),
        'tellSessionWatchers',
        tell('dialogs', { type: 'session.ended' }),
      ],
      initial: 'faucetLoading',
      states: {
        faucetLoading: {
          invoke: {
            id: 'loadFaucet',
            src: 'loadFaucet',
            onDone: {
              target: 'faucetRunning',
              actions: assign({ faucet: ({ event, spawn }) => spawn(event.output, { systemId: 'faucet' }) }),
            },
            onError: 'noFaucet',
          },
        },
        faucetRunning: {},
        /** Its code could not be fetched: no 'Get test DDEX' in this session. */
        noFaucet: {},
      },
      invoke: [
        {
          id: 'profile',
          systemId: 'profile',
          src: 'profile',
          // A wallet connected before logging in is linked to the profile now.
          input: ({ context }) => ({
            user: context.user as AuthUser,
            walletAddress: context.walletAddress,
          }),
        },
        {
          id: 'notifications',
          systemId: 'notifications',
          src: 'notifications',
          input: ({ context }) => ({ user: context.user as AuthUser }),
        },
        {
          id: 'transactions',
          systemId: 'transactions',
          src: 'transactions',
          input: ({ context }) => ({ user: context.user as AuthUser }),
        },
      ],
      on: {
        'auth.signedOut': 'signedOut',
        // Another account without a sign-out in between: a new session from scratch.
        'auth.signedIn': {
          guard: 'isOtherUser',
          target: 'signedIn',
          reenter: true,
          actions: assign({ user: ({ event }) => event.user }),
        },
        'auth.userUpdated': {
          actions: [
            assign({ user: ({ event }) => event.user }),
            tell('profile', ({ event }) => ({ type: 'session.userUpdated', user: event.user })),
          ],
        },
        // As signed out, and the profile keeps the wallet linked.
        'wallet.connected': { actions: followAndLink },
        'wallet.accountChanged': { actions: followAndLink },
        'wallet.disconnected': { actions: followAndLink },
        'wallet.chainChanged': { actions: followWallet },
        'send.transferSubmitted': {
          actions: ['refreshBalances', tell('transactions', { type: 'transactions.refresh' })],
        },
        // A swap's row is saved: the history is read again, and the profile, whose last DEX
        // activity the server has just moved (the Trading tab's context card shows it).
        'trading.swapRecorded': {
          actions: [tell('transactions', { type: 'transactions.refresh' }), readProfileAgain],
        },
        // Opening the notifications marks them read; opening the history loads it.
        'dialogs.opened': [
          {
            guard: ({ event }) => event.dialog === 'notifications',
            actions: tell('notifications', { type: 'notifications.open' }),
          },
          {
            guard: ({ event }) => event.dialog === 'transactions',
            actions: tell('transactions', { type: 'transactions.open' }),
          },
        ],
        // An email alert's link turned a kind of email off: the profile is read again to show it.
        'unsubscribe.done': { actions: readProfileAgain },
        // Closing the profile dialog without saving drops the edits (docs/product.md#profile).
        'dialogs.closed': {
          guard: ({ event }) => event.dialog === 'profile',
          actions: tell('profile', { type: 'profile.discardEdits' }),
        },
      },
    },
  },
});

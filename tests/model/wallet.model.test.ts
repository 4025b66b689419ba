import { beforeEach, expect } from 'vitest';
import { fromCallback, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { shellCopy, walletCopy } from '../../src/copy/index.ts';
import { localWalletOfferCopy } from '../../src/copy/local-wallet-offer.ts';
import { watchTokenCopy } from '../../src/copy/watch-token.ts';
import { localWalletMachine } from '../../src/machines/local-wallet/local-wallet.machine.ts';
import type { WalletAccount, WalletError } from '../../src/domain/wallet.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { walletMachine, type WalletFact } from '../../src/machines/wallet/wallet.machine.ts';
import { authUser } from '../support/fixtures.ts';
import { ALICE, BOB, OTHER_CHAIN, SEPOLIA } from '../support/machines/fixtures.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// The wallet machine's generated paths, each step checked against docs/product.md#wallet and
// #wallet-toasts: the account and chain the panel shows, the toast each step shows (with the
// address or the failure's words), the facts the root hears, and what each wallet request is asked.
// Adding DDEX to the wallet answers with its toast (its words load with the request:
// tests/unit/machines/wallet-token.test.ts checks each); here, that the chart shows it.

type Snapshot = SnapshotFrom<typeof walletMachine>;

const ada = authUser('u-1', 'ada@example.com');

/**
 * The ways a connect and a network switch can be refused, and the words each gets under its
 * toast's title (docs/product.md#wallet-toasts). The first model takes the first; each of the
 * others is a model of its own, since a path takes one answer per request.
 */
type Refusals = { connect: unknown; connectWords: string; switch: unknown; switchWords: string };
const refusalCases: Refusals[] = [
  {
    connect: { code: 'rejected', message: null } satisfies WalletError,
    connectWords: walletCopy.denied,
    switch: { code: 'rejected', message: null } satisfies WalletError,
    switchWords: walletCopy.switchRejected,
  },
  {
    connect: { code: 'not-installed', message: null } satisfies WalletError,
    connectWords: walletCopy.notInstalled,
    switch: { code: 'not-installed', message: null } satisfies WalletError,
    switchWords: walletCopy.notInstalled,
  },
  {
    connect: { code: 'pending', message: null } satisfies WalletError,
    connectWords: walletCopy.pending,
    switch: { code: 'pending', message: null } satisfies WalletError,
    switchWords: walletCopy.switchPending,
  },
  {
    // What the wallet said, when it said something; a chain it could not add is named.
    connect: { code: 'unknown', message: 'Internal JSON-RPC error.' } satisfies WalletError,
    connectWords: 'Internal JSON-RPC error.',
    switch: { code: 'unrecognized-chain', message: null } satisfies WalletError,
    switchWords: walletCopy.chainNotAdded(SEPOLIA.name),
  },
  {
    // Nothing usable said: the generic words.
    connect: new Error(' '),
    connectWords: walletCopy.connectFallback,
    switch: { code: 'unknown', message: null } satisfies WalletError,
    switchWords: walletCopy.switchFallback,
  },
  {
    connect: { code: 'no-account', message: null } satisfies WalletError,
    connectWords: walletCopy.noAccount,
    switch: {
      code: 'unrecognized-chain',
      message: 'Unrecognized chain ID "0xaa36a7".',
    } satisfies WalletError,
    switchWords: 'Unrecognized chain ID "0xaa36a7".',
  },
];

const sessionChanges = [
  { type: 'session.changed', user: ada },
  { type: 'session.changed', user: null },
];

const events = {
  'xstate.done.actor.discover': [
    { type: 'xstate.done.actor.discover', output: { available: true } },
    { type: 'xstate.done.actor.discover', output: { available: false } },
  ],
  'xstate.error.actor.discover': [{ type: 'xstate.error.actor.discover', error: new Error('no window') }],
  'xstate.done.actor.silentReconnect': [
    { type: 'xstate.done.actor.silentReconnect', output: null },
    { type: 'xstate.done.actor.silentReconnect', output: { address: ALICE, chainId: SEPOLIA.id } },
  ],
  'xstate.error.actor.silentReconnect': [
    {
      type: 'xstate.error.actor.silentReconnect',
      error: { code: 'unknown', message: 'eth_accounts failed' },
    },
  ],
  'xstate.done.actor.requestAccounts': [
    { type: 'xstate.done.actor.requestAccounts', output: { address: ALICE, chainId: SEPOLIA.id } },
    { type: 'xstate.done.actor.requestAccounts', output: { address: ALICE, chainId: OTHER_CHAIN } },
  ],
  'xstate.error.actor.copyAddress': [{ type: 'xstate.error.actor.copyAddress', error: new Error('denied') }],
  'xstate.done.actor.watchToken': [{ type: 'xstate.done.actor.watchToken', output: watchTokenCopy.added }],
  'xstate.error.actor.watchToken': [
    {
      type: 'xstate.error.actor.watchToken',
      error: new TypeError('Failed to fetch dynamically imported module'),
    },
  ],
  'xstate.error.actor.forgetConnection': [
    { type: 'xstate.error.actor.forgetConnection', error: new Error('full') },
  ],

  'provider.accountsChanged': [
    { type: 'provider.accountsChanged', accounts: [] },
    { type: 'provider.accountsChanged', accounts: [BOB] },
  ],
  'provider.chainChanged': [
    { type: 'provider.chainChanged', chainId: SEPOLIA.id },
    { type: 'provider.chainChanged', chainId: OTHER_CHAIN },
  ],
};

/** Whether the user has been signed in, as the root last said. */
let signedIn = false;
beforeEach(() => {
  signedIn = false;
});

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

/** The wallet went away: the panel empties, 'Wallet Disconnected', and the root hears it. */
const wentAway = { toasts: [walletCopy.disconnected], facts: [{ type: 'wallet.disconnected' }] };

/** Checks one step: `event` taken in `from` led to `to` with these toasts and facts. */
function checkStep(
  event: AnyEventObject,
  from: Snapshot,
  to: Snapshot,
  { toasts, facts, inputOf }: ModelStep<typeof walletMachine>,
  refusals: Refusals,
) {
  const expected: { toasts: ToastRequest[]; facts: WalletFact[] } = { toasts: [], facts: [] };
  const connectedTo = (account: WalletAccount) => {
    expect(inState(to, 'connected')).toBe(true);
    expect(to.context).toMatchObject(account);
    // The network the panel shows follows the chain the wallet is on.
    const network = account.chainId === SEPOLIA.id ? 'rightNetwork' : 'wrongNetwork';
    expect(inState(to, `connected.network.${network}`)).toBe(true);
  };
  switch (event.type) {
    case 'xstate.done.actor.discover':
    case 'xstate.error.actor.discover': {
      const available = (event['output'] as { available: boolean } | undefined)?.available === true;
      expect(inState(to, available ? 'reconnecting' : 'noProvider')).toBe(true);
      if (!available) expected.facts.push({ type: 'wallet.ready', address: null });
      break;
    }
    case 'xstate.done.actor.silentReconnect': {
      // A wallet that still grants the account reconnects silently, without a toast.
      const account = event['output'] as WalletAccount | null;
      if (account) {
        connectedTo(account);
        expected.facts.push(
          { type: 'wallet.connected', ...account },
          { type: 'wallet.ready', address: account.address },
        );
      } else {
        expect(inState(to, 'disconnected')).toBe(true);
        expected.facts.push({ type: 'wallet.ready', address: null });
      }
      break;
    }
    case 'xstate.error.actor.silentReconnect':
      expect(inState(to, 'disconnected')).toBe(true);
      expected.facts.push({ type: 'wallet.ready', address: null });
      break;
    case 'wallet.connect':
      // The spec's toast, word for word; a build for the local chain adds the local wallet to it.
      if (inState(from, 'noProvider'))
        expected.toasts.push({
          ...destructive(walletCopy.connectionFailed, walletCopy.notInstalled),
          ...(from.context.offersLocalWallet
            ? { action: { label: localWalletOfferCopy.offer, event: { type: 'wallet.useLocalWallet' } } }
            : {}),
        });
      else expect(inState(to, 'connecting')).toBe(true);
      break;
    case 'wallet.useLocalWallet':
      // Only where no wallet was found, and only in a build that offers it.
      expect(inState(to, 'takingLocalWallet')).toBe(
        inState(from, 'noProvider') && from.context.offersLocalWallet,
      );
      break;
    case 'xstate.done.actor.takeLocalWallet': {
      // Taken: its chart runs as the system's `localWallet`, and the wallet is asked for the account.
      expect(inState(to, 'connecting')).toBe(true);
      const child = to.context.localWallet;
      expect(child?.getSnapshot().context.address).toBe(ALICE);
      expect(child?.system.get('localWallet')).toBe(child);
      break;
    }
    case 'xstate.error.actor.takeLocalWallet':
      expect(inState(to, 'noProvider')).toBe(true);
      expect(to.context.localWallet).toBeNull();
      expected.toasts.push(destructive(localWalletOfferCopy.takeFailed, 'The local chain is not running'));
      break;
    case 'xstate.done.actor.requestAccounts': {
      const account = event['output'] as WalletAccount;
      connectedTo(account);
      // 'Login Recommended' waits only for a visitor.
      expect(inState(to, 'connected.loginHint.waiting')).toBe(!signedIn);
      expected.toasts.push({
        title: walletCopy.connected,
        description: walletCopy.connectedDescription(account.address),
      });
      expected.facts.push({ type: 'wallet.connected', ...account });
      break;
    }
    case 'xstate.error.actor.requestAccounts':
      expect(inState(to, 'disconnected')).toBe(true);
      expected.toasts.push(destructive(walletCopy.connectionFailed, refusals.connectWords));
      break;
    case 'provider.accountsChanged': {
      const [account] = event['accounts'] as string[];
      if (!account) {
        expect(inState(to, 'disconnected')).toBe(true);
        expected.toasts.push(...wentAway.toasts);
        expected.facts.push(...(wentAway.facts as WalletFact[]));
      } else if (account.toLowerCase() !== from.context.address?.toLowerCase()) {
        // Another account of the same wallet: the panel shows it, the root hears it.
        expect(to.context).toMatchObject({ address: account, chainId: from.context.chainId });
        expected.toasts.push({
          title: walletCopy.accountChanged,
          description: walletCopy.connectedDescription(account),
        });
        expected.facts.push({
          type: 'wallet.accountChanged',
          address: account,
          chainId: from.context.chainId,
        });
      }
      break;
    }
    case 'provider.disconnected':
    case 'wallet.disconnect':
      expect(inState(to, event.type === 'wallet.disconnect' ? 'disconnecting' : 'disconnected')).toBe(true);
      expected.toasts.push(...wentAway.toasts);
      expected.facts.push(...(wentAway.facts as WalletFact[]));
      break;
    case 'provider.chainChanged': {
      const chainId = event['chainId'] as number;
      expect(to.context.chainId).toBe(chainId);
      if (chainId !== from.context.chainId)
        expected.facts.push({
          type: 'wallet.chainChanged',
          chainId,
          onExpectedChain: chainId === SEPOLIA.id,
        });
      break;
    }
    case 'wallet.switchNetwork':
      // The wallet is asked for the portal's chain.
      expect(inputOf('switchChain')).toEqual({ chainId: SEPOLIA.id });
      break;
    case 'xstate.done.actor.switchChain':
      expect(inState(to, 'connected.network.rightNetwork')).toBe(true);
      expect(to.context.chainId).toBe(SEPOLIA.id);
      // The wallet answered before its chainChanged event: the root hears the new chain now.
      if (from.context.chainId !== SEPOLIA.id)
        expected.facts.push({ type: 'wallet.chainChanged', chainId: SEPOLIA.id, onExpectedChain: true });
      break;
    case 'xstate.error.actor.switchChain':
      expect(inState(to, 'connected.network.wrongNetwork')).toBe(true);
      expected.toasts.push(destructive(walletCopy.switchFailed, refusals.switchWords));
      break;
    case 'wallet.copy':
      expect(inputOf('copyAddress')).toEqual({ address: from.context.address });
      break;
    case 'wallet.watchToken':
      // Asked only of a wallet on the portal's chain; a request stays the one until it answers.
      expect(inState(to, 'connected.listing.asking')).toBe(
        inState(from, 'connected') && from.context.chainId === SEPOLIA.id,
      );
      break;
    case 'xstate.done.actor.watchToken':
      expect(inState(to, 'connected.listing.idle')).toBe(true);
      expected.toasts.push(event['output'] as ToastRequest);
      break;
    case 'xstate.error.actor.watchToken':
      // Only its code failing to load: the wallet's own failures have their toasts (done, above).
      expect(inState(to, 'connected.listing.idle')).toBe(true);
      expected.toasts.push(destructive(walletCopy.tokenNotAdded, shellCopy.partLoadFailed));
      break;
    case 'xstate.done.actor.copyAddress':
      expected.toasts.push(walletCopy.copied);
      break;
    case 'xstate.error.actor.copyAddress':
      expected.toasts.push(destructive(walletCopy.copyFailed.title, walletCopy.copyFailed.description));
      break;
    case 'session.changed':
      signedIn = event['user'] !== null;
      expect(to.context.signedIn).toBe(signedIn);
      if (signedIn) expect(inState(to, 'connected.loginHint.waiting')).toBe(false);
      break;
    default:
      if (event.type.startsWith('xstate.after.')) {
        expect(inState(to, 'connected.loginHint.off')).toBe(true);
        expected.toasts.push(walletCopy.loginRecommended);
      }
  }
  expect(toasts, `the toasts after ${event.type}`).toEqual(expected.toasts);
  expect(facts, `the facts after ${event.type}`).toEqual(expected.facts);
}

/** A build for the local chain: with no extension, the local test wallet can be taken. */
const localWalletEvents = {
  'xstate.done.actor.takeLocalWallet': [
    {
      type: 'xstate.done.actor.takeLocalWallet',
      output: {
        logic: localWalletMachine.provide({ actors: { approvals: fromCallback(() => {}) } }),
        address: ALICE,
      },
    },
  ],
  'xstate.error.actor.takeLocalWallet': [
    { type: 'xstate.error.actor.takeLocalWallet', error: new Error('The local chain is not running') },
  ],
};

for (const [index, refusals] of refusalCases.entries()) {
  describeModel({
    name: 'wallet',
    machine: walletMachine,
    // The paths send the provider's events themselves.
    callbacks: ['providerEvents'],
    // The first model is a build for the local chain, which offers its own wallet; the others not.
    input: { expectedChain: SEPOLIA, offersLocalWallet: index === 0 },
    events: {
      ...events,
      ...localWalletEvents,
      'xstate.error.actor.requestAccounts': [
        { type: 'xstate.error.actor.requestAccounts', error: refusals.connect },
      ],
      'xstate.error.actor.switchChain': [{ type: 'xstate.error.actor.switchChain', error: refusals.switch }],
      // A path takes one of these per state; the models take turns at which comes first.
      'session.changed': index % 2 === 0 ? sessionChanges : [...sessionChanges].reverse(),
    },
    states: {
      '*': (s, step) => {
        const event = step.events.at(-1);
        if (step.before && event) checkStep(event, step.before, s, step, refusals);
        // An address is shown exactly while connected, and only with its chain.
        expect(s.context.address !== null).toBe(inState(s, 'connected'));
        expect(s.context.chainId !== null).toBe(inState(s, 'connected'));
        // The connect buttons say 'Connecting...' while the wallet is being found or asked.
        const connecting = ['discovering', 'reconnecting', 'connecting', 'takingLocalWallet'].some((state) =>
          inState(s, state),
        );
        expect(s.hasTag('connecting')).toBe(connecting);
        expect(s.hasTag('busy')).toBe(
          connecting ||
            inState(s, 'disconnecting') ||
            inState(s, 'connected.network.switching') ||
            inState(s, 'connected.listing.asking'),
        );
      },
    },
  });
}

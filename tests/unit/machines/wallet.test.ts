import { describe, expect, it } from 'vitest';
import { walletCopy } from '../../../src/copy/index.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import { isWalletError, type WalletError } from '../../../src/domain/wallet.ts';
import {
  walletMachine,
  type WalletAccount,
  type WalletFact,
  type WalletProviderEvent,
} from '../../../src/machines/wallet/wallet.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { authUser } from '../../support/fixtures.ts';
import { ALICE, BOB, OTHER_CHAIN, SEPOLIA } from '../../support/machines/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const ada = authUser('u-1', 'ada@example.com');

function start() {
  const h = machineHarness(walletMachine, {
    input: { expectedChain: SEPOLIA },
    callbacks: ['providerEvents'],
  });
  const toasts = h.toasts;
  const reports = h.facts as WalletFact[];
  const discovers = h.calls<{ available: boolean }>('discover');
  const reconnects = h.calls<WalletAccount | null>('silentReconnect');
  const requests = h.calls<WalletAccount>('requestAccounts');
  const switches = h.calls('switchChain');
  const copies = h.calls('copyAddress');
  const forgets = h.calls('forgetConnection');
  const providerEvents = h.callback('providerEvents');
  const provider = {
    get subscribed() {
      return providerEvents.started;
    },
    get unsubscribed() {
      return providerEvents.stopped;
    },
    emit: (event: WalletProviderEvent): void => providerEvents.emit(event),
  };
  const { actor, clock } = h;

  const w = {
    actor,
    clock,
    toasts,
    reports,
    discovers,
    reconnects,
    requests,
    switches,
    copies,
    forgets,
    provider,
    snapshot: () => actor.getSnapshot(),
    async discovered(available: boolean) {
      lastCall(discovers).resolve({ available });
      await settle();
    },
    async reconnected(account: WalletAccount | null) {
      lastCall(reconnects).resolve(account);
      await settle();
    },
    /** Starts with a provider and no previous connection. */
    async toDisconnected() {
      await w.discovered(true);
      await w.reconnected(null);
    },
    async toConnected(
      account: WalletAccount = { address: ALICE, chainId: SEPOLIA.id },
      user: AuthUser | null = ada,
    ) {
      await w.toDisconnected();
      actor.send({ type: 'session.changed', user });
      actor.send({ type: 'wallet.connect' });
      lastCall(requests).resolve(account);
      await settle();
      toasts.length = 0;
      reports.length = 0;
    },
  };
  return w;
}

const failedToast = (description: string): ToastRequest => ({
  title: walletCopy.connectionFailed,
  description,
  variant: 'destructive',
});

describe('wallet machine: start-up', () => {
  it('discovers first, busy and connecting, with nothing connected', () => {
    const w = start();
    expect(w.snapshot().hasTag('connecting')).toBe(true);
    expect(w.snapshot().value).toBe('discovering');
    expect(w.snapshot().hasTag('busy')).toBe(true);
    expect(w.snapshot().context).toMatchObject({ address: null, chainId: null, expectedChain: SEPOLIA });
  });

  it('without a wallet extension settles in noProvider and reports ready with no address', async () => {
    const w = start();
    await w.discovered(false);
    expect(w.snapshot().value).toBe('noProvider');
    expect(w.snapshot().hasTag('busy')).toBe(false);
    expect(w.reports).toEqual([{ type: 'wallet.ready', address: null }]);
    expect(w.reconnects).toHaveLength(0);
  });

  it('treats a failed discovery as no provider', async () => {
    const w = start();
    lastCall(w.discovers).reject(new Error('boom'));
    await settle();
    expect(w.snapshot().value).toBe('noProvider');
    expect(w.reports).toEqual([{ type: 'wallet.ready', address: null }]);
  });

  it('with a provider tries a silent reconnect, busy until it settles', async () => {
    const w = start();
    await w.discovered(true);
    expect(w.snapshot().value).toBe('reconnecting');
    expect(w.snapshot().hasTag('busy')).toBe(true);
    expect(w.reconnects).toHaveLength(1);
    expect(w.reports).toEqual([]);
  });

  it('with nobody to reconnect is disconnected, reports ready with no address and shows no toast', async () => {
    const w = start();
    await w.toDisconnected();
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.reports).toEqual([{ type: 'wallet.ready', address: null }]);
    expect(w.toasts).toEqual([]);
  });

  it('treats a failed silent reconnect as disconnected', async () => {
    const w = start();
    await w.discovered(true);
    lastCall(w.reconnects).reject({ code: 'unknown', message: 'nope' } satisfies WalletError);
    await settle();
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.reports).toEqual([{ type: 'wallet.ready', address: null }]);
    expect(w.toasts).toEqual([]);
  });

  it('reconnects silently: connected, reported, subscribed to the provider, no toast and no login hint', async () => {
    const w = start();
    await w.discovered(true);
    await w.reconnected({ address: ALICE, chainId: SEPOLIA.id });
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork', loginHint: 'off' } })).toBe(true);
    expect(w.snapshot().context).toMatchObject({ address: ALICE, chainId: SEPOLIA.id });
    expect(w.reports).toEqual([
      { type: 'wallet.connected', address: ALICE, chainId: SEPOLIA.id },
      { type: 'wallet.ready', address: ALICE },
    ]);
    expect(w.provider.subscribed).toBe(1);
    w.clock.increment(10_000);
    expect(w.toasts).toEqual([]);
  });

  it('reconnects onto another chain in the wrong-network state', async () => {
    const w = start();
    await w.discovered(true);
    await w.reconnected({ address: ALICE, chainId: OTHER_CHAIN });
    expect(w.snapshot().matches({ connected: { network: 'wrongNetwork' } })).toBe(true);
  });
});

describe('wallet machine: connect', () => {
  it('without a provider shows the missing-extension error and stays put', async () => {
    const w = start();
    await w.discovered(false);
    w.actor.send({ type: 'wallet.connect' });
    expect(w.toasts).toEqual([failedToast(walletCopy.notInstalled)]);
    expect(w.snapshot().value).toBe('noProvider');
  });

  it('asks the wallet for accounts, busy while it answers', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    expect(w.snapshot().value).toBe('connecting');
    expect(w.snapshot().hasTag('busy')).toBe(true);
    expect(w.requests).toHaveLength(1);
  });

  it('sends one request at a time: a second connect while connecting is ignored', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    w.actor.send({ type: 'wallet.connect' });
    expect(w.requests).toHaveLength(1);
  });

  it('signed in: connected, "Wallet Connected!" with the short address, reported, and no login hint', async () => {
    const w = start();
    await w.toDisconnected();
    w.reports.length = 0;
    w.actor.send({ type: 'session.changed', user: ada });
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).resolve({ address: ALICE, chainId: SEPOLIA.id });
    await settle();
    expect(
      w.snapshot().matches({ connected: { network: 'rightNetwork', clipboard: 'idle', loginHint: 'off' } }),
    ).toBe(true);
    expect(w.toasts).toEqual([
      { title: walletCopy.connected, description: walletCopy.connectedDescription(ALICE) },
    ]);
    // 6 leading and 4 trailing characters (docs/product.md#constants).
    expect(w.toasts[0]?.description).toContain('0x1234...abcd');
    expect(w.reports).toEqual([{ type: 'wallet.connected', address: ALICE, chainId: SEPOLIA.id }]);
    expect(w.provider.subscribed).toBe(1);
    w.clock.increment(10_000);
    expect(w.toasts).toHaveLength(1);
  });

  it('signed out: "Wallet Connected!" first, then "Login Recommended" once it has been shown for 5 s', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).resolve({ address: ALICE, chainId: SEPOLIA.id });
    await settle();
    expect(w.snapshot().matches({ connected: { loginHint: 'waiting' } })).toBe(true);
    expect(w.toasts).toEqual([
      { title: walletCopy.connected, description: walletCopy.connectedDescription(ALICE) },
    ]);
    w.clock.increment(4999);
    expect(w.toasts).toHaveLength(1);
    w.clock.increment(1);
    expect(w.toasts).toEqual([
      { title: walletCopy.connected, description: walletCopy.connectedDescription(ALICE) },
      walletCopy.loginRecommended,
    ]);
    expect(w.snapshot().matches({ connected: { loginHint: 'off' } })).toBe(true);
  });

  it('drops the login hint when the user signs in meanwhile', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).resolve({ address: ALICE, chainId: SEPOLIA.id });
    await settle();
    w.clock.increment(2000);
    w.actor.send({ type: 'session.changed', user: ada });
    expect(w.snapshot().matches({ connected: { loginHint: 'off' } })).toBe(true);
    w.clock.increment(10_000);
    expect(w.toasts.map((toast) => toast.title)).toEqual([walletCopy.connected]);
  });

  it('drops the login hint when the wallet is disconnected meanwhile', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).resolve({ address: ALICE, chainId: SEPOLIA.id });
    await settle();
    w.actor.send({ type: 'wallet.disconnect' });
    w.clock.increment(10_000);
    expect(w.toasts.map((toast) => toast.title)).toEqual([
      walletCopy.connected,
      walletCopy.disconnected.title,
    ]);
  });

  it('a connect while signed in gives no hint, even after signing out', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'session.changed', user: null });
    w.clock.increment(10_000);
    expect(w.toasts).toEqual([]);
  });

  it('connects onto another chain in the wrong-network state', async () => {
    const w = start();
    await w.toConnected({ address: ALICE, chainId: OTHER_CHAIN });
    expect(w.snapshot().matches({ connected: { network: 'wrongNetwork' } })).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['code 4001 (rejected)', { code: 'rejected', message: 'User rejected the request.' }, walletCopy.denied],
    ['code -32002 (pending)', { code: 'pending', message: 'Already processing' }, walletCopy.pending],
    ['a missing extension', { code: 'not-installed', message: null }, walletCopy.notInstalled],
    [
      'another error, with its message',
      { code: 'unknown', message: 'Internal JSON-RPC error.' },
      'Internal JSON-RPC error.',
    ],
    ['another error without a message', { code: 'unknown', message: null }, walletCopy.connectFallback],
    ['another error with an empty message', { code: 'unknown', message: '' }, walletCopy.connectFallback],
    ['a plain Error, with its message', new Error('socket closed'), 'socket closed'],
    ['something that is no error', 'weird', walletCopy.connectFallback],
  ])(
    'on %s: "Wallet Connection Failed" with the catalogue text, back to disconnected',
    async (_, error, text) => {
      const w = start();
      await w.toDisconnected();
      w.reports.length = 0;
      w.actor.send({ type: 'wallet.connect' });
      lastCall(w.requests).reject(error);
      await settle();
      expect(w.toasts).toEqual([failedToast(text)]);
      expect(w.snapshot().value).toBe('disconnected');
      expect(w.reports).toEqual([]);
      expect(w.provider.subscribed).toBe(0);
    },
  );

  it('can connect again after a failure', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).reject({ code: 'rejected', message: null });
    await settle();
    w.actor.send({ type: 'wallet.connect' });
    expect(w.requests).toHaveLength(2);
    expect(w.snapshot().value).toBe('connecting');
  });

  it('ignores connect while connected', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.connect' });
    expect(w.requests).toHaveLength(1);
    expect(w.toasts).toEqual([]);
  });
});

describe('wallet machine: events from the provider', () => {
  it('no accounts left: disconnected, "Wallet Disconnected", reported, unsubscribed', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({ type: 'provider.accountsChanged', accounts: [] });
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.snapshot().context).toMatchObject({ address: null, chainId: null });
    expect(w.toasts).toEqual([walletCopy.disconnected]);
    expect(w.reports).toEqual([{ type: 'wallet.disconnected' }]);
    expect(w.provider.unsubscribed).toBe(1);
    expect(w.forgets).toHaveLength(0);
  });

  it('the provider disconnecting: disconnected, "Wallet Disconnected", reported', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({ type: 'provider.disconnected' });
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.toasts).toEqual([walletCopy.disconnected]);
    expect(w.reports).toEqual([{ type: 'wallet.disconnected' }]);
    expect(w.provider.unsubscribed).toBe(1);
  });

  it('another account: follows it, tells the user and reports the change', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({ type: 'provider.accountsChanged', accounts: [BOB, ALICE] });
    expect(w.snapshot().context.address).toBe(BOB);
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
    expect(w.toasts).toEqual([
      { title: walletCopy.accountChanged, description: walletCopy.connectedDescription(BOB) },
    ]);
    expect(w.reports).toEqual([{ type: 'wallet.accountChanged', address: BOB, chainId: SEPOLIA.id }]);
  });

  it('the same account again (in any letter case) changes nothing', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({
      type: 'provider.accountsChanged',
      accounts: [ALICE.toUpperCase().replace('0X', '0x')],
    });
    expect(w.snapshot().context.address).toBe(ALICE);
    expect(w.toasts).toEqual([]);
    expect(w.reports).toEqual([]);
  });

  it('another chain: wrong network, reported; back on the expected chain: right network, reported', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({ type: 'provider.chainChanged', chainId: OTHER_CHAIN });
    expect(w.snapshot().matches({ connected: { network: 'wrongNetwork' } })).toBe(true);
    expect(w.snapshot().context.chainId).toBe(OTHER_CHAIN);
    w.provider.emit({ type: 'provider.chainChanged', chainId: SEPOLIA.id });
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
    expect(w.reports).toEqual([
      { type: 'wallet.chainChanged', chainId: OTHER_CHAIN, onExpectedChain: false },
      { type: 'wallet.chainChanged', chainId: SEPOLIA.id, onExpectedChain: true },
    ]);
    expect(w.toasts).toEqual([]);
  });

  it('a chainChanged for the chain it is already on is not reported again', async () => {
    const w = start();
    await w.toConnected();
    w.provider.emit({ type: 'provider.chainChanged', chainId: SEPOLIA.id });
    w.provider.emit({ type: 'provider.chainChanged', chainId: OTHER_CHAIN });
    w.provider.emit({ type: 'provider.chainChanged', chainId: OTHER_CHAIN });
    expect(w.reports).toEqual([
      { type: 'wallet.chainChanged', chainId: OTHER_CHAIN, onExpectedChain: false },
    ]);
  });

  it('listens to the provider only while connected', async () => {
    const w = start();
    await w.toDisconnected();
    expect(w.provider.subscribed).toBe(0);
    w.actor.send({ type: 'provider.accountsChanged', accounts: [BOB] });
    w.actor.send({ type: 'provider.chainChanged', chainId: OTHER_CHAIN });
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.snapshot().context).toMatchObject({ address: null, chainId: null });
  });
});

describe('wallet machine: wrong network and the switch', () => {
  async function onWrongNetwork() {
    const w = start();
    await w.toConnected({ address: ALICE, chainId: OTHER_CHAIN });
    return w;
  }

  it('asks the wallet to switch to the expected chain, busy meanwhile', async () => {
    const w = await onWrongNetwork();
    w.actor.send({ type: 'wallet.switchNetwork' });
    expect(w.snapshot().matches({ connected: { network: 'switching' } })).toBe(true);
    expect(w.snapshot().hasTag('busy')).toBe(true);
    expect(w.switches.map((call) => call.input)).toEqual([{ chainId: SEPOLIA.id }]);
  });

  it('once switched: right network, reported even when the wallet sent no chainChanged', async () => {
    const w = await onWrongNetwork();
    w.actor.send({ type: 'wallet.switchNetwork' });
    lastCall(w.switches).resolve(undefined);
    await settle();
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
    expect(w.snapshot().context.chainId).toBe(SEPOLIA.id);
    expect(w.reports).toEqual([{ type: 'wallet.chainChanged', chainId: SEPOLIA.id, onExpectedChain: true }]);
    expect(w.toasts).toEqual([]);
  });

  it('stays switching through the chainChanged event and reports the chain once', async () => {
    const w = await onWrongNetwork();
    w.actor.send({ type: 'wallet.switchNetwork' });
    w.provider.emit({ type: 'provider.chainChanged', chainId: SEPOLIA.id });
    expect(w.snapshot().matches({ connected: { network: 'switching' } })).toBe(true);
    w.actor.send({ type: 'wallet.switchNetwork' });
    expect(w.switches).toHaveLength(1);
    lastCall(w.switches).resolve(undefined);
    await settle();
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
    expect(w.reports).toEqual([{ type: 'wallet.chainChanged', chainId: SEPOLIA.id, onExpectedChain: true }]);
  });

  it('offers no switch on the right network', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.switchNetwork' });
    expect(w.switches).toHaveLength(0);
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['rejected', { code: 'rejected', message: 'User rejected' }, walletCopy.switchRejected],
    ['pending', { code: 'pending', message: null }, walletCopy.switchPending],
    [
      'an unknown chain the wallet could not add',
      { code: 'unrecognized-chain', message: null },
      walletCopy.chainNotAdded('Sepolia'),
    ],
    [
      'an unknown chain, with the wallet message',
      { code: 'unrecognized-chain', message: 'Bad RPC' },
      'Bad RPC',
    ],
    ['the extension gone', { code: 'not-installed', message: null }, walletCopy.notInstalled],
    ['another error, with its message', { code: 'unknown', message: 'Chain busy' }, 'Chain busy'],
    ['another error without a message', { code: 'unknown', message: null }, walletCopy.switchFallback],
    ['a plain Error', new Error('timeout'), 'timeout'],
  ])(
    'when the switch fails (%s): "Network Switch Failed", still on the wrong network',
    async (_, error, text) => {
      const w = await onWrongNetwork();
      w.actor.send({ type: 'wallet.switchNetwork' });
      lastCall(w.switches).reject(error);
      await settle();
      expect(w.toasts).toEqual([
        { title: walletCopy.switchFailed, description: text, variant: 'destructive' },
      ]);
      expect(w.snapshot().matches({ connected: { network: 'wrongNetwork' } })).toBe(true);
      expect(w.reports).toEqual([]);
    },
  );

  it('a failed switch after the wallet did change chain lands on the right network', async () => {
    const w = await onWrongNetwork();
    w.actor.send({ type: 'wallet.switchNetwork' });
    w.provider.emit({ type: 'provider.chainChanged', chainId: SEPOLIA.id });
    lastCall(w.switches).reject({ code: 'unknown', message: 'late failure' });
    await settle();
    expect(w.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
  });
});

describe('wallet machine: copy', () => {
  it('copies the full address: "Copied!"', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.copy' });
    expect(w.snapshot().matches({ connected: { clipboard: 'copying' } })).toBe(true);
    expect(w.copies.map((call) => call.input)).toEqual([{ address: ALICE }]);
    w.actor.send({ type: 'wallet.copy' });
    expect(w.copies).toHaveLength(1);
    lastCall(w.copies).resolve(undefined);
    await settle();
    expect(w.toasts).toEqual([walletCopy.copied]);
    expect(w.snapshot().matches({ connected: { clipboard: 'idle' } })).toBe(true);
  });

  it('a failed copy: "Copy Failed" / "Could not copy address."', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.copy' });
    lastCall(w.copies).reject(new Error('denied'));
    await settle();
    expect(w.toasts).toEqual([{ ...walletCopy.copyFailed, variant: 'destructive' }]);
    expect(w.snapshot().matches({ connected: { clipboard: 'idle' } })).toBe(true);
  });

  it('copies while a network switch is pending (a clipboard write is no wallet request)', async () => {
    const w = start();
    await w.toConnected({ address: ALICE, chainId: OTHER_CHAIN });
    w.actor.send({ type: 'wallet.switchNetwork' });
    w.actor.send({ type: 'wallet.copy' });
    expect(w.copies).toHaveLength(1);
    expect(w.snapshot().matches({ connected: { network: 'switching', clipboard: 'copying' } })).toBe(true);
  });

  it('offers no copy without a wallet', async () => {
    const w = start();
    await w.toDisconnected();
    w.actor.send({ type: 'wallet.copy' });
    expect(w.copies).toHaveLength(0);
  });
});

describe('wallet machine: disconnect', () => {
  it('clears at once, "Wallet Disconnected", reports it, and remembers the choice', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.disconnect' });
    expect(w.snapshot().value).toBe('disconnecting');
    // Saving the choice is a request, but the connect buttons must not say 'Connecting...'.
    expect(w.snapshot().hasTag('busy')).toBe(true);
    expect(w.snapshot().hasTag('connecting')).toBe(false);
    expect(w.snapshot().context).toMatchObject({ address: null, chainId: null });
    expect(w.toasts).toEqual([walletCopy.disconnected]);
    expect(w.reports).toEqual([{ type: 'wallet.disconnected' }]);
    expect(w.provider.unsubscribed).toBe(1);
    expect(w.forgets).toHaveLength(1);
    w.actor.send({ type: 'wallet.connect' });
    expect(w.requests).toHaveLength(1);
    lastCall(w.forgets).resolve(undefined);
    await settle();
    expect(w.snapshot().value).toBe('disconnected');
  });

  it('is disconnected even when remembering the choice fails', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.disconnect' });
    lastCall(w.forgets).reject(new Error('storage full'));
    await settle();
    expect(w.snapshot().value).toBe('disconnected');
    expect(w.toasts).toEqual([walletCopy.disconnected]);
  });

  it('can connect again afterwards', async () => {
    const w = start();
    await w.toConnected();
    w.actor.send({ type: 'wallet.disconnect' });
    lastCall(w.forgets).resolve(undefined);
    await settle();
    w.actor.send({ type: 'wallet.connect' });
    lastCall(w.requests).resolve({ address: BOB, chainId: SEPOLIA.id });
    await settle();
    expect(w.snapshot().context.address).toBe(BOB);
    expect(w.reports).toContainEqual({ type: 'wallet.connected', address: BOB, chainId: SEPOLIA.id });
  });

  it('disconnects in the middle of a switch; the switch result is then ignored', async () => {
    const w = start();
    await w.toConnected({ address: ALICE, chainId: OTHER_CHAIN });
    w.actor.send({ type: 'wallet.switchNetwork' });
    w.actor.send({ type: 'wallet.disconnect' });
    lastCall(w.switches).reject({ code: 'rejected', message: null });
    await settle();
    expect(w.toasts).toEqual([walletCopy.disconnected]);
  });
});

describe('isWalletError', () => {
  it('recognises the failure shape and nothing else', () => {
    expect(isWalletError({ code: 'rejected', message: null })).toBe(true);
    expect(isWalletError({ code: 'unknown', message: 'x' })).toBe(true);
    expect(isWalletError({ code: 'no-account', message: null })).toBe(true);
    expect(isWalletError({ code: 4001, message: 'x' })).toBe(false);
    expect(isWalletError({ code: 'other', message: null })).toBe(false);
    expect(isWalletError({ code: 'pending' })).toBe(true);
    expect(isWalletError({ code: 'pending', message: 42 })).toBe(false);
    expect(isWalletError(null)).toBe(false);
    expect(isWalletError('rejected')).toBe(false);
  });
});

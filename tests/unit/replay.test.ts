import { createActor, SimulatedClock, type Actor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createJournal } from '../../src/devtools/journal.ts';
import type { JournalExport } from '../../src/devtools/journal-types.ts';
import { machineSnapshots } from '../../src/devtools/machine-snapshots.ts';
import { provideBots } from '../../src/app/provide-bots.ts';
import { providePortal, type PortalServices } from '../../src/app/provide-portal.ts';
import { provideTrading } from '../../src/app/provide-trading.ts';
import { replay, ReplayError } from '../../src/devtools/replay.ts';
import { sendCopy, walletCopy } from '../../src/copy/index.ts';
import { botsMachine } from '../../src/machines/bots/bots.machine.ts';
import type { portalMachine } from '../../src/machines/portal/portal.machine.ts';
import {
  BackendError,
  type AuthChange,
  type AuthUser,
  type NotificationHandlers,
  type NotificationRow,
  type Profile,
  type SupabaseService,
  type TransactionRow,
} from '../../src/services/supabase/types.ts';
import type { TatumService } from '../../src/services/tatum/types.ts';
import { TokenServiceError, type TokenService } from '../../src/services/token/types.ts';
import type { WalletEventHandlers, WalletService } from '../../src/services/wallet/types.ts';
import { PORTAL_INPUT } from '../support/portal-stubs.ts';
import { fakeTabServices, tabFixtures } from '../support/fake-tab-services.ts';
import { profileRow } from '../support/fixtures.ts';
// The proof's message is built by a module the composition root loads on first use; loaded here
// first, it answers within the fakes' settle rounds like every other service.
import '../../src/services/wallet/siwe.ts';

// A session of the whole portal, driven with fake services (answers at once,
// subscriptions the test fires by hand) and XState timers on a simulated
// clock, recorded with the journal; then replayed from the export alone, with
// every machine's final state compared with the live one.

const PASSWORD = 'correct horse battery staple';
const PRIVATE_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const TX_HASH = `0x${'ab12'.repeat(16)}` as const;
/**
 * What the wallet answers a swap with. The answer is a bare hash (the event's `data`), where a real
 * one, 32 bytes of hex, has a private key's shape and is redacted (redact.ts, rule 3): a replay
 * cannot give it back and stops at the swap's next step. A shorter hash keeps the swap replayable.
 */
const SWAP_HASH = `0x${'5a'.repeat(20)}` as const;
/** An earlier trade of the market's history. */
const TRADE_HASH = `0x${'cd34'.repeat(16)}` as const;
const NONCE = 'n0nce1234567890abcdef';
/** A wallet's signature of the wallet proof: it must never reach the journal. */
const SIGNATURE = `0x${'5e'.repeat(65)}` as const;
const user: AuthUser = {
  id: 'u-1',
  email: 'ada@example.com',
  emailConfirmedAt: '2026-01-01T00:00:00Z',
  web3Address: null,
  metadata: {},
};

const notification = (id: string, isRead = false): NotificationRow => ({
  id,
  user_id: user.id,
  title: 'DDEX Received',
  message: `You received 7 DDEX (${id})`,
  is_read: isRead,
  read_at: null,
  created_at: '2026-01-01T00:00:00Z',
});

const sent: TransactionRow = {
  id: 't-1',
  user_id: user.id,
  created_at: '2026-01-01T00:00:00Z',
  type: 'token_sent',
  status: 'confirmed',
  amount: '-2.5',
  asset_amount: null,
  token_symbol: 'DDEX',
  asset_symbol: null,
  tx_hash: TX_HASH,
  transaction_hash: TX_HASH,
};

/** Fake services, with hooks for the subscriptions' callbacks and a count of every call made. */
function fakeServices({ walletHash = TX_HASH }: { walletHash?: `0x${string}` } = {}) {
  let calls = 0;
  const count = <T>(value: T | (() => T)): Promise<Awaited<T>> => {
    calls += 1;
    return Promise.resolve(typeof value === 'function' ? (value as () => T)() : value);
  };
  const fail = (error: unknown): Promise<never> => {
    calls += 1;
    return Promise.reject(error);
  };
  const hooks = {
    auth: null as ((change: AuthChange) => void) | null,
    feed: null as NotificationHandlers | null,
    wallet: null as WalletEventHandlers | null,
    systemTheme: null as ((prefersDark: boolean) => void) | null,
  };
  let profile: Profile | null = null;
  let notifications = [notification('n-1', true)];
  let nativeFailures = 1;

  const supabase: SupabaseService = {
    available: true,
    getSession: () => count(null),
    onAuthChange(listener) {
      hooks.auth = listener;
      return () => void (hooks.auth = null);
    },
    signUp: () => count({ user, hasSession: true }),
    signIn: ({ password }) =>
      password === PASSWORD
        ? count(user)
        : fail(new BackendError('Invalid login credentials', 'invalid_credentials', 400)),
    signInWithWallet: () => count(user),
    signOut: () => count(undefined),
    updateUserMetadata: () => count(undefined),
    requestPasswordReset: () => count(undefined),
    updatePassword: () => count(undefined),
    unsubscribeEmail: () => count('bots' as const),
    fetchProfile: () => count(() => profile),
    upsertProfile: (row) => count(() => (profile = profileRow(user, { ...profile, ...row }))),
    clearWallet: () =>
      count(
        () => (profile = profileRow(user, { ...profile, wallet_address: null, wallet_verified_at: null })),
      ),
    setEmailAlert: () => count(() => profile?.notification_preferences ?? {}),
    requestWalletNonce: () => count({ nonce: NONCE, expiresAt: '2026-01-01T00:10:00Z' }),
    linkWallet: () =>
      count(
        () =>
          (profile = profileRow(user, {
            ...profile,
            wallet_address: ADDRESS,
            wallet_verified_at: '2026-01-01T00:00:01Z',
          })),
      ),
    listNotifications: () => count(() => notifications),
    markNotificationsRead: () => count(undefined),
    clearNotifications: () => count(undefined),
    subscribeNotifications(_, handlers) {
      hooks.feed = handlers;
      return () => void (hooks.feed = null);
    },
    listTransactions: () => count([sent]),
    uploadAvatar: () => count('u-1-1.png'),
    avatarPublicUrl: () => null,
    recordTransaction: () => count({ recorded: true }),
    removeAvatar: () => count(false),
  };
  const wallet: WalletService = {
    chain: {
      id: 31337,
      name: 'Hardhat (local)',
      rpcUrl: '',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
    discover: () => count({ available: true, info: null }),
    silentReconnect: () => count(null),
    requestAccounts: () => count({ address: ADDRESS, chainId: 31337 } as const),
    switchChain: () => count(undefined),
    watch(handlers) {
      hooks.wallet = handlers;
      return () => void (hooks.wallet = null);
    },
    copyAddress: () => count(undefined),
    forgetConnection: () => count(undefined),
    signMessage: () => count(SIGNATURE),
    sendTransaction: () => count(walletHash),
    watchToken: () => count('added' as const),
  };
  const tatum: TatumService = {
    getNativeBalance: () =>
      nativeFailures-- > 0
        ? fail(new Error('The node did not answer'))
        : count({ balance: '1.5', asset: 'ETH' }),
    createAddressWebhook: () =>
      count({ id: 'w-1', address: ADDRESS, url: 'x', chain: 'ETH', type: 'ADDRESS_EVENT' }),
    listWebhooks: () => count([]),
    deleteWebhook: () => count(undefined),
    destroy: () => count(undefined),
  };
  const prepared = {
    from: ADDRESS,
    to: RECIPIENT,
    raw: 2_500_000_000_000_000_000n,
    amount: '2.5',
    decimals: 18,
  } as const;
  const token: TokenService = {
    readBalance: () => count({ raw: 5_000_000_000_000_000_000n, formatted: '5', decimals: 18 }),
    prepareTransfer: ({ privateKey }) =>
      privateKey === PRIVATE_KEY ? count(prepared) : fail(new TokenServiceError({ code: 'key-mismatch' })),
    signTransfer: () =>
      count({ serialized: `0x02f8${'cd'.repeat(110)}` as const, hash: TX_HASH as `0x${string}` }),
    broadcastTransfer: () => count({ ...prepared, hash: TX_HASH as `0x${string}`, blockNumber: 7n }),
    prepareWalletTransfer: () =>
      count({ prepared, call: { from: ADDRESS, to: ADDRESS, data: '0xa9059cbb' as const } }),
    confirmTransfer: () => count({ ...prepared, hash: TX_HASH as `0x${string}`, blockNumber: 7n }),
  };
  const services: PortalServices = {
    supabase,
    wallet,
    tatum,
    token,
    themeStorage: { setItem: () => undefined },
    watchSystemTheme(onChange) {
      hooks.systemTheme = onChange;
      return () => void (hooks.systemTheme = null);
    },
    log: { failure: () => undefined, webhooks: () => undefined },
    siteUrl: 'http://127.0.0.1:5173',
  };
  const insert = (row: NotificationRow) => {
    notifications = [row, ...notifications];
    hooks.feed?.onChange({ eventType: 'INSERT', row });
  };
  return { services, hooks, insert, calls: () => calls };
}

/** Lets every fake answer (they resolve at once) reach the machines. */
const settle = async () => {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
};

type Portal = Actor<typeof portalMachine>;

const child = (portal: Portal, id: string) => {
  const ref = portal.system.get(id);
  if (!ref) throw new Error(`no ${id}`);
  return ref;
};

/** Sign-in (a wrong password first), a wallet, balances (a failed read first), a send, history, toast timeouts. */
async function recordSession(limit?: number) {
  const fake = fakeServices();
  const clock = new SimulatedClock();
  const { journal, inspect } = createJournal({ now: () => clock.now(), ...(limit ? { limit } : {}) });
  const portal: Portal = createActor(providePortal(fake.services), {
    systemId: 'portal',
    input: PORTAL_INPUT,
    clock,
    inspect,
  }).start();
  await settle();
  fake.hooks.auth?.({ event: 'INITIAL_SESSION', user: null });
  await settle();
  clock.increment(6000); // the welcome toast times out

  fake.hooks.systemTheme?.(true);
  child(portal, 'theme').send({ type: 'theme.toggle' });

  child(portal, 'wallet').send({ type: 'wallet.connect' });
  await settle();
  expect(child(portal, 'balances').getSnapshot().context.native).toEqual({ status: 'failed' });
  clock.increment(5000); // 'Login Recommended' follows 'Wallet Connected!'
  expect(child(portal, 'toast').getSnapshot().context.toast?.title).toBe(walletCopy.loginRecommended.title);
  child(portal, 'balances').send({ type: 'balances.refresh' });
  await settle();

  const auth = child(portal, 'auth');
  auth.send({ type: 'auth.open', mode: 'login' });
  auth.send({ type: 'auth.edit', email: user.email ?? '', password: 'wrong' });
  auth.send({ type: 'auth.submit', email: user.email ?? '', password: 'wrong' });
  await settle();
  auth.send({ type: 'auth.submit', email: user.email ?? '', password: PASSWORD });
  await settle();
  fake.hooks.auth?.({ event: 'SIGNED_IN', user });
  fake.hooks.feed?.onStatus('SUBSCRIBED');
  await settle();
  fake.insert(notification('n-2'));
  await settle();
  child(portal, 'dialogs').send({ type: 'dialogs.open', dialog: 'notifications' });
  await settle();
  fake.hooks.wallet?.chainChanged?.(1);
  fake.hooks.wallet?.chainChanged?.(31337);
  await settle();

  const send = child(portal, 'send');
  send.send({ type: 'send.submit', recipient: RECIPIENT, amount: '2.5', privateKey: `0x${'11'.repeat(32)}` });
  await settle();
  send.send({ type: 'send.submit', recipient: RECIPIENT, amount: '2.5', privateKey: PRIVATE_KEY });
  await settle();
  expect(send.getSnapshot().context.lastHash).toBe(TX_HASH);
  child(portal, 'dialogs').send({ type: 'dialogs.open', dialog: 'transactions' });
  await settle();
  clock.increment(5000); // the last toast times out
  expect(child(portal, 'toast').getSnapshot().value).toBe('idle');
  child(portal, 'dialogs').send({ type: 'dialogs.close' });
  child(portal, 'tab').send({ type: 'tab.select', tab: 'faq' });
  // One toast still on screen at the end, its timer pending.
  send.send({ type: 'send.submit', recipient: '', amount: '', privateKey: '' });

  // Snapshots and export at one moment: nothing can happen in between.
  const live = machineSnapshots(portal);
  const recording = journal.export();
  portal.stop();
  return { live, recording, fake };
}

describe('replay of a recorded portal session', () => {
  it('rebuilds every machine’s final snapshot from the exported journal alone', async () => {
    const { live, recording, fake } = await recordSession();
    expect(recording.truncated).toBe(false);
    expect(Object.keys(live)).toEqual(
      expect.arrayContaining(['portal', 'auth', 'profile', 'wallet', 'balances', 'send', 'toast', 'theme']),
    );
    // The session went where the test drove it.
    expect(live.auth?.context).toMatchObject({ user: { id: user.id }, password: '' });
    expect(live.profile?.context).toMatchObject({ profile: { wallet_address: ADDRESS } });
    expect(live.send?.context).toMatchObject({ lastHash: TX_HASH, privateKey: null });
    expect(live.toast?.context).toMatchObject({ toast: { title: sendCopy.missingInformation.title } });

    const callsBefore = fake.calls();
    const replayed = replay(JSON.parse(JSON.stringify(recording)) as JournalExport);
    expect(fake.calls()).toBe(callsBefore);
    expect(replayed.snapshots).toEqual(live);
    // It reproduced the recording entry for entry.
    expect(replayed.journal.entries.map((e) => [e.target, e.event])).toEqual(
      recording.entries.map((e) => [e.target, e.event]),
    );
    expect(replayed.counts.timers).toBe(3);
    replayed.portal.stop();
  });

  it('records no password and no private key', async () => {
    const { recording } = await recordSession();
    const text = JSON.stringify(recording).toLowerCase();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(PRIVATE_KEY.slice(2));
    expect(text).not.toContain('11'.repeat(32));
    // The wallet proof's signature neither, though the message it signed is kept.
    expect(text).not.toContain(SIGNATURE.slice(2));
    expect(text).toContain(NONCE.toLowerCase());
    // The transaction hash is no secret, and the replay needs it.
    expect(text).toContain(TX_HASH.slice(2));
  });

  it('refuses a truncated journal with a clear reason', async () => {
    const { recording } = await recordSession(50);
    expect(recording.truncated).toBe(true);
    expect(() => replay(recording)).toThrow(/truncated/);
  });

  it('refuses a journal that was cleared, and anything that is no journal', () => {
    const { journal, inspect } = createJournal();
    const portal = createActor(providePortal(fakeServices().services), {
      systemId: 'portal',
      input: PORTAL_INPUT,
      inspect,
    });
    portal.start();
    journal.clear();
    portal.system.get('tab')?.send({ type: 'tab.select', tab: 'faq' });
    portal.stop();
    expect(() => replay(journal.export())).toThrow(/truncated/);
    expect(() => replay({ format: 'other', version: 1, entries: [] } as unknown as JournalExport)).toThrow(
      /not a DDEX journal/,
    );
    const empty: JournalExport = {
      format: 'ddex-journal',
      version: 1,
      startedAt: '',
      truncated: false,
      entries: [],
    };
    expect(() => replay(empty)).toThrow(/no entries/);
  });

  it('says where a tampered journal stops matching what the machines do', async () => {
    const { recording } = await recordSession();
    const at = recording.entries.findIndex((e) => e.event.type === 'wallet.connect');
    const entries = recording.entries
      .filter((_, index) => index !== at)
      .map((e, index) => ({ ...e, seq: index + 1 }));
    const error = (() => {
      try {
        replay({ ...recording, entries });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ReplayError);
    expect((error as ReplayError).seq).toBe(at + 1);
    expect((error as ReplayError).message).toMatch(/differs from the recording at entry/);
  });
});

/**
 * Signed in with a wallet, the user opens the Trading tab, buys DDEX for 1 ETH (quoted, sent by the
 * wallet, mined and saved to the history), then opens the Bots tab and creates a bot. Leaving a tab
 * stops its actor, so the trading machines are caught as the swap ends, with the journal's length
 * then, and the bots machine at the end.
 */
async function recordTabsSession() {
  const fake = fakeServices({ walletHash: SWAP_HASH });
  const tabs = fakeTabServices({ marketHash: TRADE_HASH });
  let loads = 0;
  fake.services.tabs = {
    loadTrading: () => {
      loads += 1;
      const { wallet, supabase } = fake.services;
      return Promise.resolve(provideTrading({ dex: tabs.dex, wallet, supabase }));
    },
    loadBots: () => {
      loads += 1;
      return Promise.resolve(provideBots({ bots: tabs.bots }));
    },
  };
  const clock = new SimulatedClock();
  const { journal, inspect } = createJournal({ now: () => clock.now() });
  const portal: Portal = createActor(providePortal(fake.services), {
    systemId: 'portal',
    input: PORTAL_INPUT,
    clock,
    inspect,
  }).start();
  await settle();
  fake.hooks.auth?.({ event: 'INITIAL_SESSION', user: null });
  await settle();
  child(portal, 'wallet').send({ type: 'wallet.connect' });
  await settle();
  const auth = child(portal, 'auth');
  auth.send({ type: 'auth.open', mode: 'login' });
  auth.send({ type: 'auth.submit', email: user.email ?? '', password: PASSWORD });
  await settle();
  fake.hooks.auth?.({ event: 'SIGNED_IN', user });
  await settle();

  child(portal, 'tab').send({ type: 'tab.select', tab: 'trading' });
  await settle();
  const trading = portal.getSnapshot().context.trading;
  if (!trading) throw new Error('the Trading tab has no actor');
  expect(portal.system.get('trading')).toBe(trading);
  tabs.hooks.market?.block(6n);
  const swap = trading.getSnapshot().children.swap;
  if (!swap) throw new Error('the Trading tab has no swap form');
  swap.send({ type: 'swap.amount', text: '1' });
  clock.increment(100); // the pause after typing
  await settle();
  expect(swap.getSnapshot().value).toEqual({ form: { quoted: 'ready' } });
  swap.send({ type: 'swap.submit' });
  await settle();
  const atSwap = { live: machineSnapshots(portal), entries: journal.entries().length };

  child(portal, 'tab').send({ type: 'tab.select', tab: 'bots' });
  await settle();
  expect(portal.system.get('trading')).toBeUndefined();
  tabs.hooks.botsStatus?.('SUBSCRIBED');
  await settle();
  const bots = portal.getSnapshot().context.bots;
  if (!bots) throw new Error('the Bots tab has no actor');
  bots.send({ type: 'bots.create' });
  bots.send({ type: 'bots.field', name: 'name', value: 'Breakout' });
  bots.send({ type: 'bots.field', name: 'level', value: '0.0021' });
  bots.send({ type: 'bots.submit' });
  await settle();

  const live = machineSnapshots(portal);
  const recording = journal.export();
  portal.stop();
  return { atSwap, live, recording, calls: () => fake.calls() + tabs.calls() + loads };
}

describe('replay of a session with the Trading and Bots tabs', () => {
  it('rebuilds the tabs’ machines, loaded with their tab, from the exported journal alone', async () => {
    const { atSwap, live, recording, calls } = await recordTabsSession();
    expect(recording.truncated).toBe(false);

    // The session went where the test drove it.
    expect(Object.keys(atSwap.live)).toEqual(
      expect.arrayContaining(['portal', 'trading', 'trading/market', 'trading/swap']),
    );
    expect(atSwap.live.portal?.context).toMatchObject({ trading: { $actor: 'trading' }, bots: null });
    expect(atSwap.live.trading?.status).toBe('active');
    expect(atSwap.live['trading/market']).toMatchObject({
      value: { live: 'following' },
      context: { blockNumber: { $bigint: '6' }, trades: [{ hash: TRADE_HASH }] },
    });
    expect(atSwap.live['trading/swap']).toMatchObject({
      value: { confirmed: 'done' },
      context: {
        amountText: '',
        hash: SWAP_HASH,
        result: { hash: SWAP_HASH, amountOut: { $bigint: tabFixtures.minedOut.toString() } },
      },
    });
    expect(Object.keys(live).filter((name) => name.startsWith('trading'))).toEqual([]);
    expect(live.portal?.context).toMatchObject({ trading: null, bots: { $actor: 'bots' } });
    expect(live.bots).toMatchObject({
      value: { active: { list: { ready: 'idle' }, feed: { connected: 'live' } } },
      context: {
        userId: user.id,
        bots: [{ name: 'Breakout', rule: { kind: 'priceAbove', level: 0.0021 }, status: 'active' }],
      },
    });

    // What the loaders gave is recorded as the machine's id, not as its definition.
    const fromLoaders = recording.entries
      .filter((e) => e.source === 'portal/loadTrading' || e.source === 'portal/loadBots')
      .map((e) => [e.target, e.event.type, e.event.data ?? e.event.output]);
    expect(fromLoaders).toEqual([
      ['portal/loadTrading', 'xstate.promise.resolve', { $logic: 'trading' }],
      ['portal', 'xstate.done.actor.loadTrading', { $logic: 'trading' }],
      ['portal/loadBots', 'xstate.promise.resolve', { $logic: 'bots' }],
      ['portal', 'xstate.done.actor.loadBots', { $logic: 'bots' }],
    ]);
    const text = JSON.stringify(recording);
    expect(text).not.toContain('"states":');

    const callsBefore = calls();
    const exported = JSON.parse(text) as JournalExport;
    // The session as the swap ended, while the Trading tab's machines still ran.
    const toSwap = replay({ ...exported, entries: exported.entries.slice(0, atSwap.entries) });
    expect(toSwap.snapshots).toEqual(atSwap.live);
    toSwap.portal.stop();
    const replayed = replay(exported);
    expect(calls()).toBe(callsBefore);
    expect(replayed.snapshots).toEqual(live);
    expect(replayed.journal.entries.map((e) => [e.target, e.event])).toEqual(
      recording.entries.map((e) => [e.target, e.event]),
    );
    replayed.portal.stop();
  });

  it('names the entry that holds a machine it does not know', async () => {
    const { recording } = await recordTabsSession();
    const tampered = JSON.parse(
      JSON.stringify(recording).replaceAll('{"$logic":"bots"}', '{"$logic":"lending"}'),
    ) as JournalExport;
    const at = tampered.entries.findIndex((e) => e.source === 'portal/loadBots') + 1;
    const failure = (run: () => unknown) => {
      try {
        run();
      } catch (caught) {
        return caught;
      }
      return null;
    };

    const unknown = failure(() => replay(tampered));
    expect(unknown).toBeInstanceOf(ReplayError);
    expect(unknown).toMatchObject({ seq: at });
    expect((unknown as ReplayError).message).toBe(
      `Entry ${at} (xstate.promise.resolve → portal/loadBots (from portal/loadBots)) holds the machine ` +
        `'lending', which the replay cannot rebuild (it knows: trading, bots, faucet).`,
    );
    const unprovided = failure(() => replay(recording, { logics: { bots: botsMachine } }));
    expect((unprovided as ReplayError).message).toMatch(/holds the machine 'trading'.*\(it knows: bots\)/);
  });
});

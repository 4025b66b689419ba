import { randomUUID } from 'node:crypto';
import type { AnyActorRef } from 'xstate';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createJournal } from '../../src/devtools/journal.ts';
import type { Journal, JournalExport } from '../../src/devtools/journal-types.ts';
import { machineSnapshots, type MachineSnapshot } from '../../src/devtools/machine-snapshots.ts';
import { replay } from '../../src/devtools/replay.ts';
import { authCopy, sendCopy, walletCopy } from '../../src/copy/index.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { uniqueEmail } from '../support/stack/users.ts';
import { startHeadlessPortal, type HeadlessPortal } from '../support/headless-portal.ts';

// A full real session of the portal, headless on the local stack (as
// portal-headless.test.ts runs it), recorded by the event journal: sign-up
// with a password, the mock wallet and the proof it signs to be linked, its
// balances, a DDEX send signed with the account's private key, the history.
// Then the journal is checked for secrets, and replayed with every network
// call failing: the rebuilt machines must equal the live ones, snapshot for
// snapshot.

const stack = inject('gateway');
const chain = inject('chain');
const wallet = testAccount('journalWallet');
const recipient = testAccount('journalPayer');
/** Only this session knows it, so finding it anywhere in the journal would be a leak. */
const password = `Journal-${randomUUID()}`;

let headless: HeadlessPortal;
let journal: Journal;
let recording: JournalExport;
let live: Record<string, MachineSnapshot>;
let hash: string;

const child = (id: string) => headless.child(id);
const until: HeadlessPortal['until'] = (actor, check, timeoutMs) => headless.until(actor, check, timeoutMs);
const toastTitled = (title: string) => headless.toastTitled(title);

beforeAll(() => {
  // Large enough for the whole session: a truncated journal could not be replayed.
  const recorder = createJournal({ limit: 50_000 });
  journal = recorder.journal;
  headless = startHeadlessPortal({ stack, chain, wallet, inspect: recorder.inspect });
});

afterAll(() => headless?.stop());

describe('the event journal of a real session', () => {
  it('records sign-up, the wallet, balances, a DDEX send and the history', async () => {
    await until(headless.portal, (s) => s.matches({ boot: 'ready' }));
    const email = uniqueEmail('journal');
    child('auth').send({ type: 'auth.open', mode: 'signup' });
    child('auth').send({ type: 'auth.edit', email, password });
    child('auth').send({ type: 'auth.submit', email, password });
    await toastTitled(authCopy.signupSuccess.title);
    await until(headless.portal, (s) => s.context.user?.email === email);

    child('wallet').send({ type: 'wallet.connect' });
    await toastTitled(walletCopy.connected);
    await until(child('balances'), (s) => s.matches('loaded'));
    await until(
      child('profile'),
      (s) =>
        s.context.profile?.wallet_address?.toLowerCase() === wallet.address.toLowerCase() &&
        s.context.profile.wallet_verified_at !== null,
    );
    await until(child('profile'), (s) => s.matches('ready'));

    child('send').send({
      type: 'send.submit',
      recipient: recipient.address,
      amount: '1.25',
      privateKey: wallet.privateKey,
    });
    await toastTitled(sendCopy.transferSubmitted);
    hash = child('send').getSnapshot().context.lastHash as string;
    const recorded = (s: ReturnType<AnyActorRef['getSnapshot']>) =>
      (s.context.rows as { tx_hash: string }[]).some((row) => row.tx_hash === hash);
    await until(child('transactions'), (s) => s.matches('ready') && recorded(s));
    await until(child('balances'), (s) => s.matches('loaded'));

    // The history dialog loads it again.
    child('dialogs').send({ type: 'dialogs.open', dialog: 'transactions' });
    await until(child('transactions'), (s) => s.matches('loading'));
    await until(child('transactions'), (s) => s.matches('ready') && recorded(s));
    await until(child('notifications'), (s) => s.matches({ list: 'ready', feed: { subscribing: 'live' } }));
    // A real timer in the recording: the last toast goes after its 5 s.
    await until(child('toast'), (s) => s.matches('idle'), 10_000);

    // The live state and the journal at one moment: nothing can happen in between.
    live = machineSnapshots(headless.portal);
    recording = journal.export();
    headless.portal.stop();

    expect(recording.truncated).toBe(false);
    const types = recording.entries.map((e) => e.event.type);
    for (const type of [
      'auth.submit',
      'xstate.done.actor.signUp',
      'wallet.connect',
      'xstate.done.actor.requestWalletNonce',
      'xstate.done.actor.signProof',
      'xstate.done.actor.linkWallet',
      'xstate.done.actor.broadcastTransfer',
    ])
      expect(types).toContain(type);
    expect(live.transactions?.value).toBe('ready');
  }, 60_000);

  it('holds no signature of the wallet proof, though it keeps the message that was signed', () => {
    const signed = recording.entries.find((e) => e.event.type === 'xstate.done.actor.signProof');
    expect(signed?.event.output).toMatchObject({
      message: expect.stringContaining(wallet.address),
      signature: '[redacted]',
    });
    // A 65-byte value, anywhere at all (a signed transaction is longer, and no secret).
    expect(JSON.stringify(recording).match(/"0x[0-9a-fA-F]{130}"/)).toBeNull();
  });

  it('holds neither the password nor the private key, with or without 0x', () => {
    const text = JSON.stringify(recording);
    const lower = text.toLowerCase();
    expect(text).not.toContain(password);
    expect(lower).not.toContain(wallet.privateKey.toLowerCase());
    expect(lower).not.toContain(wallet.privateKey.slice(2).toLowerCase());
    // Where they were typed, the journal says so.
    const submits = recording.entries.filter(
      (e) => e.event.type === 'auth.submit' || e.event.type === 'send.submit',
    );
    expect(submits.map((e) => e.event.password ?? e.event.privateKey)).toEqual(['[redacted]', '[redacted]']);
    // The transaction hash is kept: it is no secret, and the history shows it.
    expect(lower).toContain(hash.slice(2).toLowerCase());
  });

  it('replays without any network to the same state of every machine', () => {
    const fetchCalls: unknown[] = [];
    vi.stubGlobal('fetch', (...args: unknown[]) => {
      fetchCalls.push(args);
      throw new Error('the replay must not use the network');
    });
    try {
      // As a file would bring it back: JSON only.
      const replayed = replay(JSON.parse(JSON.stringify(recording)) as JournalExport);
      expect(replayed.snapshots).toEqual(live);
      expect(Object.keys(replayed.snapshots).sort()).toEqual(
        [
          'auth',
          'balances',
          'dialogs',
          'notifications',
          'portal',
          'profile',
          'send',
          'send/historyOutbox',
          'tab',
          'theme',
          'toast',
          'transactions',
          'unsubscribe',
          'wallet',
          'webhooks',
        ].sort(),
      );
      expect(replayed.journal.entries).toHaveLength(recording.entries.length);
      expect(replayed.counts.timers).toBeGreaterThan(0);
      replayed.portal.stop();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fetchCalls).toEqual([]);
  });
});

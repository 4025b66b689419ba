import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createClient } from '@supabase/supabase-js';
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { LOCAL_MAIL_FROM, type Gateway } from '../../stack/gateway/index.ts';
import { startMailbox, type Mailbox, type MailboxMessage } from '../../stack/mail/mailbox.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { createSmtpMailer, type Mailer, type OutgoingMail } from '../../supabase/functions/_shared/smtp.ts';
import { makeUnsubscribeToken } from '../../supabase/functions/_shared/unsubscribe-token.ts';
import { createEmailAlertsHandler } from '../../supabase/functions/email-alerts/handler.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import {
  fileUsers,
  serviceClient,
  signedInUser,
  type Client,
  type FileUsers,
  type TestUser,
} from '../support/stack/users.ts';
import { freshWallet, PORTAL_ORIGIN, setWalletAsServer } from '../support/stack/wallets.ts';

// Alerts by email, end to end on a stack of this file's own whose SMTP settings name a local
// mailbox (stack/mail/mailbox.ts), as `npm start` wires it: a user who turned email on for a kind
// of notification gets one mail per notification of that kind, read back from the mailbox as a
// person would read it, however often Tatum redelivers and however many drains run; a mail server
// that is down delays the mail and loses none; the mail's link turns that kind off without a
// sign-in, and nothing else does.

const SITE_URL = PORTAL_ORIGIN;
const WAIT = { timeout: 20_000, interval: 50 };
/** The first retry after a failed send; the gateway calls the drain again at least 1 s later. */
const RETRY_BASE_MS = 200;
const COUNTER = '0x1234567890abcdef1234567890abcdef12345678';

type Preferences = { email?: { transfers?: boolean; bots?: boolean } };
type OutboxRow = Database['public']['Tables']['email_outbox']['Row'];

let mailbox: Mailbox;
let gateway: Gateway;
let service: Client;
let users: FileUsers;
const functionLog: string[] = [];

beforeAll(async () => {
  mailbox = await startMailbox({ smtpPort: 0, webPort: 0 });
  gateway = await startOwnGateway('email-alerts', {
    smtp: { ...mailbox.smtp, from: LOCAL_MAIL_FROM },
    emailRetryBaseMs: RETRY_BASE_MS,
    siteUrl: SITE_URL,
    functionLog: (line) => functionLog.push(line),
  });
  service = serviceClient(gateway);
  users = fileUsers(gateway, service);
});

afterEach(() => users.closeChannels());

afterAll(async () => {
  await gateway?.close();
  await mailbox?.stop();
});

/** A signed-in user whose profile holds a proven wallet and these email choices, saved as the portal saves them. */
async function userWith(label: string, preferences: Preferences): Promise<TestUser & { wallet: string }> {
  const user = await users.signIn(label);
  const saved = await user.client
    .from('profiles')
    .upsert({ id: user.id, email: user.email, notification_preferences: preferences });
  if (saved.error) throw new Error(`saving the profile failed: ${saved.error.message}`);
  const wallet = freshWallet().address;
  await setWalletAsServer(service, user.id, wallet, true);
  return { ...user, wallet };
}

/** Tatum's address event of ETH arriving at `address` (process-payments records it as it stands). */
function ethArriving(address: string, amount = '1.25') {
  return {
    address,
    amount,
    asset: 'ETH',
    blockNumber: 1234,
    counterAddress: COUNTER,
    txId: `0x${randomBytes(32).toString('hex')}`,
    type: 'native',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
  };
}

/** POSTs the event to process-payments, signed, as Tatum delivers (and redelivers) it. */
async function deliver(event: object): Promise<void> {
  const body = JSON.stringify(event);
  const response = await fetch(`${gateway.url}/functions/v1/process-payments`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-payload-hash': await signPayload(gateway.webhookSecret, body),
    },
    body,
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

async function notificationsOf(user: TestUser) {
  const { data, error } = await user.client.from('user_notifications').select('*');
  expect(error).toBeNull();
  return data ?? [];
}

/** The outbox, read as the server (no user may). */
async function outboxOf(userId: string): Promise<OutboxRow[]> {
  const { data, error } = await service.from('email_outbox').select('*').eq('user_id', userId);
  if (error) throw new Error(`reading the outbox failed: ${error.message}`);
  return data;
}

/** Every row of the user's outbox once each has gone: no mail of theirs is still to come. */
function allSent(userId: string, count: number): Promise<OutboxRow[]> {
  return vi.waitFor(async () => {
    const rows = await outboxOf(userId);
    if (rows.length !== count || rows.some((row) => row.sent_at === null)) {
      throw new Error(`${rows.filter((row) => row.sent_at !== null).length} of ${rows.length} sent`);
    }
    return rows;
  }, WAIT);
}

function mailsArrived(address: string, count: number): Promise<MailboxMessage[]> {
  return vi.waitFor(async () => {
    const mails = await mailbox.messagesTo(address);
    if (mails.length < count) throw new Error(`${mails.length} of ${count} mails arrived`);
    return mails;
  }, WAIT);
}

/** The mail as it was received, headers included (MailDev's parsed headers leave List-* out). */
async function sourceOf(mail: MailboxMessage): Promise<string> {
  const response = await fetch(`${mailbox.url}/api/email/${mail.id}/source`);
  expect(response.status).toBe(200);
  return response.text();
}

/** A header of the mail's source, its folded lines joined again (RFC 5322 §2.2.3). */
function headerOf(source: string, name: string): string | null {
  const head = (source.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.+)$`, 'im').exec(head)?.[1]?.trim() ?? null;
}

/** The token of the mail's unsubscribe link, which opens the portal. */
function linkToken(mail: MailboxMessage): string {
  const token = new RegExp(`${SITE_URL}/\\?unsubscribe=([A-Za-z0-9_.-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return token;
}

async function preferencesOf(userId: string): Promise<unknown> {
  const { data, error } = await service
    .from('profiles')
    .select('notification_preferences')
    .eq('id', userId)
    .single();
  if (error) throw new Error(`reading the preferences failed: ${error.message}`);
  return data.notification_preferences;
}

/** The portal's unsubscribe page's call: the token in a JSON body, no session. */
const unsubscribe = (token: unknown) =>
  fetch(`${gateway.url}/functions/v1/email-unsubscribe`, {
    method: 'POST',
    headers: { apikey: gateway.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

/** A drain as the hosted webhook (or its scheduled retry) calls it. */
const drain = () =>
  fetch(`${gateway.url}/functions/v1/email-alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.serviceRoleKey}`, 'content-type': 'application/json' },
    body: '{}',
  });

type DrainAnswer = { sent: string[]; failed: string[]; refused: string[] };

/** Queues mails for the user as the trigger would, not yet due (so no webhook call takes them), then all due at once. */
async function queueDue(user: TestUser, subjects: string[]): Promise<void> {
  const queued = await service.from('email_outbox').insert(
    subjects.map((subject) => ({
      notification_id: randomUUID(),
      user_id: user.id,
      kind: 'transfers' as const,
      recipient: user.email,
      subject,
      body: `${subject}.`,
      next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
    })),
  );
  expect(queued.error).toBeNull();
  const due = await service
    .from('email_outbox')
    .update({ next_attempt_at: new Date().toISOString() })
    .eq('user_id', user.id);
  expect(due.error).toBeNull();
}

/** Lets everyone through once `count` have arrived. */
function barrier(count: number): { arrive: () => Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      arrived += 1;
      if (arrived >= count) open();
      return opened;
    },
  };
}

/**
 * A mail server that is slow for one recipient: a send to `address` waits for `wait()` before the
 * mailbox gets it (what the drain does meanwhile is what is tested); every other mail goes
 * straight to the mailbox. `held` names the subjects it was given, in order.
 */
function heldMailer(address: string, wait: () => Promise<void>, name = 'held') {
  const mailbox = mailboxMailer();
  const held: string[] = [];
  const mailer: Mailer = {
    async send(mail: OutgoingMail) {
      if (mail.to === address) {
        held.push(mail.subject);
        await wait();
      }
      await mailbox.send(mail);
    },
  };
  return { mailer, held, name };
}

/** The mailbox over SMTP, as the gateway's functions reach it. */
const mailboxMailer = () =>
  createSmtpMailer({ ...mailbox.smtp, user: null, pass: null, clientName: '127.0.0.1' });

/**
 * A mail server that takes the connection and the sender and answers every recipient with
 * `reply` (RFC 5321's RCPT TO): what a provider says of an address it has no mailbox for (5xx,
 * for good) or cannot take now (4xx). No TLS is offered, so nodemailer speaks plain SMTP to it.
 */
async function refusingServer(reply: string): Promise<{ port: number; stop(): Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.write('220 refusing.test ESMTP\r\n');
    let pending = '';
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const command = pending.slice(0, end).toUpperCase();
        pending = pending.slice(end + 2);
        if (command.startsWith('EHLO') || command.startsWith('HELO')) socket.write('250 refusing.test\r\n');
        else if (command.startsWith('MAIL FROM')) socket.write('250 2.1.0 Ok\r\n');
        else if (command.startsWith('RCPT TO')) socket.write(`${reply}\r\n`);
        else if (command.startsWith('QUIT')) socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 2.0.0 Ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** email-alerts as the function builds it, on this stack's database, sending with `mailer`. */
function alertsHandler(mailer: Mailer, options: { sendDeadlineMs?: number; supabase?: Client } = {}) {
  return createEmailAlertsHandler({
    supabase: options.supabase ?? service,
    mailer,
    from: LOCAL_MAIL_FROM,
    siteUrl: SITE_URL,
    supabaseUrl: gateway.url,
    unsubscribeSecret: gateway.emailUnsubscribeSecret,
    callerKeys: [gateway.serviceRoleKey],
    ...(options.sendDeadlineMs === undefined ? {} : { sendDeadlineMs: options.sendDeadlineMs }),
  });
}

/** One drain by the handler itself, called as the webhook calls it. */
const drainWith = (mailer: Mailer, options: Parameters<typeof alertsHandler>[1] = {}) =>
  alertsHandler(
    mailer,
    options,
  )(
    new Request(`${gateway.url}/functions/v1/email-alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.serviceRoleKey}` },
      body: '{}',
    }),
  );

let blockNumber = 900;
/** A bot of the user's that the next `fire` sets off, as market-bots' evaluate_market_swap does. */
async function botOf(user: TestUser): Promise<() => Promise<void>> {
  const pair = `0x${randomBytes(20).toString('hex')}`;
  const bot = await user.client
    .from('bots')
    .insert({ name: 'Mail me', kind: 'price_above', level: 8888.5 })
    .select()
    .single();
  if (bot.error) throw new Error(`creating the bot failed: ${bot.error.message}`);
  return async () => {
    const fired = await service.rpc('evaluate_market_swap', {
      p_pair: pair,
      p_tx_hash: `0x${randomBytes(32).toString('hex')}`,
      p_log_index: 1,
      p_block_number: blockNumber++,
      p_block_time: new Date(Date.now() + 60_000).toISOString(),
      p_price_before: '8888.4',
      p_price_after: '8888.6',
      p_ddex_amount: '1',
      p_side: 'buy',
      p_price_before_text: '8888.4',
      p_price_after_text: '8888.6',
      p_amount_text: '1',
    });
    expect(fired.error).toBeNull();
    expect(fired.data?.[0]?.fired).toBe(1);
  };
}

describe('one email per notification the user asked for', () => {
  it('mails a transfer that Tatum delivers three times once, as its notification reads, with the unsubscribe link', async () => {
    const user = await userWith('alert-thrice', { email: { transfers: true } });
    const event = ethArriving(user.wallet, '1.25');
    await deliver(event);
    await deliver(event);
    await deliver(event);

    const [notification, ...more] = await notificationsOf(user);
    expect(more).toEqual([]);
    const [row] = await allSent(user.id, 1);
    const [mail, ...others] = await mailsArrived(user.email, 1);
    expect(others).toEqual([]);

    expect(mail?.subject).toBe('ETH Received');
    expect(mail?.subject).toBe(notification?.title);
    expect(mail?.from).toEqual([LOCAL_MAIL_FROM.address]);
    expect(mail?.text).toContain(`You received 1.25 ETH from 0x1234…5678 (tx ${event.txId.slice(0, 10)}…).`);
    expect(mail?.text.startsWith(notification?.message ?? '-')).toBe(true);
    expect(mail?.text).toContain(`DDEX Token Portal: ${SITE_URL}`);
    expect(mail?.text).toMatch(/To turn these emails off, open: http:\/\/127\.0\.0\.1:5173\/\?unsubscribe=/);
    const source = await sourceOf(mail as MailboxMessage);
    const token = linkToken(mail as MailboxMessage);
    expect(headerOf(source, 'List-Unsubscribe')).toBe(
      `<${gateway.url}/functions/v1/email-unsubscribe?token=${token}>`,
    );
    expect(headerOf(source, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(source, 'Message-ID')).toBe(`<email-alert.${row?.id}@127.0.0.1>`);
  });

  it('mails a bot firing to its owner when they asked for bots', async () => {
    const user = await userWith('alert-bot', { email: { bots: true } });
    const fire = await botOf(user);
    await fire();

    await allSent(user.id, 1);
    const [mail, ...others] = await mailsArrived(user.email, 1);
    expect(others).toEqual([]);
    expect(mail?.subject).toBe('DDEX above 8888.5 ETH');
    expect(mail?.text).toContain('Mail me: 8888.4 → 8888.6 ETH per DDEX');
    expect(mail?.text).toContain('you turned on email for your trading bots');
  });
});

describe('what is not mailed', () => {
  it('mails nothing of a kind the user left off, nor a stranger’s token, nor to a wallet-only account', async () => {
    const bots = await userWith('alert-bots-only', { email: { bots: true, transfers: false } });
    await deliver(ethArriving(bots.wallet));
    const strangerToken = {
      ...ethArriving(bots.wallet, '5'),
      type: 'fungible',
      asset: `0x${randomBytes(20).toString('hex')}`,
    };
    await deliver(strangerToken);
    expect(await notificationsOf(bots)).toHaveLength(2);

    // Sign in with Ethereum: an account with a wallet and no email.
    const account = freshWallet();
    const walletOnly = createClient<Database>(gateway.url, gateway.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const signedIn = await walletOnly.auth.signInWithWeb3({
      chain: 'ethereum',
      wallet: walletOf(account) as never,
      statement: 'Sign in to DDEX',
      options: { url: `${SITE_URL}/` },
    });
    expect(signedIn.error).toBeNull();
    const walletOnlyId = signedIn.data.user?.id ?? '';
    const saved = await walletOnly
      .from('profiles')
      .update({ notification_preferences: { email: { transfers: true, bots: true } } })
      .eq('id', walletOnlyId)
      .select();
    expect(saved.data).toHaveLength(1);
    await deliver(ethArriving(account.address));
    const seen = await walletOnly.from('user_notifications').select('title');
    expect(seen.data).toEqual([{ title: 'ETH Received' }]);

    // The notifications are there; no mail is queued for any of them, so none can ever go.
    expect(await outboxOf(bots.id)).toEqual([]);
    expect(await outboxOf(walletOnlyId)).toEqual([]);
    // And one that is mailed, after them, arrives alone.
    const fire = await botOf(bots);
    await fire();
    await allSent(bots.id, 1);
    expect((await mailsArrived(bots.email, 1)).map((mail) => mail.subject)).toEqual([
      'DDEX above 8888.5 ETH',
    ]);
  });

  it('does not send a queued mail whose kind the user turned off before it went', async () => {
    const user = await userWith('alert-changed-mind', { email: { transfers: true } });
    const queued = await service
      .from('email_outbox')
      .insert({
        notification_id: randomUUID(),
        user_id: user.id,
        kind: 'transfers',
        recipient: user.email,
        subject: 'Changed my mind',
        body: 'Never sent.',
        next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .select('id')
      .single();
    expect(queued.error).toBeNull();
    const off = await user.client
      .from('profiles')
      .update({ notification_preferences: { email: { transfers: false } } })
      .eq('id', user.id);
    expect(off.error).toBeNull();
    await service
      .from('email_outbox')
      .update({ next_attempt_at: new Date().toISOString() })
      .eq('user_id', user.id);

    expect(await (await drain()).json()).toEqual({ sent: [], failed: [], refused: [] });
    const [row] = await outboxOf(user.id);
    expect(row).toMatchObject({ sent_at: null, discarded_at: expect.any(String) });
    expect(await mailbox.messagesTo(user.email)).toEqual([]);
  });
});

describe('a mail server that is down', () => {
  it('keeps the mail queued with a later attempt and the reason, and sends it once when the server is back', async () => {
    const user = await userWith('alert-down', { email: { transfers: true } });
    const port = mailbox.smtp.port;
    await mailbox.stop();
    try {
      await deliver(ethArriving(user.wallet, '2'));
      const failed = await vi.waitFor(async () => {
        const [row] = await outboxOf(user.id);
        if (!row || row.attempts < 1) throw new Error('not tried yet');
        return row;
      }, WAIT);
      expect(failed.sent_at).toBeNull();
      expect(failed.last_error).toMatch(/ECONNREFUSED/);
      expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.parse(failed.created_at));
    } finally {
      mailbox = await startMailbox({ smtpPort: port, webPort: 0 });
    }

    const [row] = await allSent(user.id, 1);
    expect(row?.attempts).toBeGreaterThanOrEqual(1);
    const mails = await mailsArrived(user.email, 1);
    expect(mails.map((mail) => mail.subject)).toEqual(['ETH Received']);
    expect(mails[0]?.text).toContain('You received 2 ETH');
  });
});

describe('drains side by side, and a slow mail server', () => {
  // These call email-alerts' handler themselves, with mail servers of their own making, so no
  // drain of the stack may take their rows first: the helpers above (userWith, outboxOf, …) act on
  // a stack without SMTP settings for these tests, which serves no email-alerts and calls none.
  let saved: { gateway: Gateway; service: Client; users: FileUsers };
  beforeAll(async () => {
    saved = { gateway, service, users };
    gateway = await startOwnGateway('email-alerts-direct', { siteUrl: SITE_URL, functions: 'node' });
    service = serviceClient(gateway);
    users = fileUsers(gateway, service);
  });

  afterAll(async () => {
    await users.closeChannels();
    await gateway?.close();
    ({ gateway, service, users } = saved);
  });

  it('sends each of several queued mails once when two drains run at once', async () => {
    const user = await userWith('alert-drains', { email: { transfers: true } });
    const subjects = Array.from({ length: 6 }, (_, i) => `Queued ${i + 1}`);
    // Each drain's first mail waits until the other drain holds one too: both are then sending.
    const both = barrier(2);
    const held = (name: string) => heldMailer(user.email, both.arrive, name);
    const [first, second] = [held('first'), held('second')];
    await queueDue(user, subjects);

    const answers = await Promise.all([drainWith(first.mailer), drainWith(second.mailer)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [one, two] = (await Promise.all(answers.map((answer) => answer.json()))) as DrainAnswer[];
    expect(one?.sent.length).toBeGreaterThan(0);
    expect(two?.sent.length).toBeGreaterThan(0);
    expect(one?.sent.filter((id) => two?.sent.includes(id))).toEqual([]);

    await allSent(user.id, subjects.length);
    const mails = await mailsArrived(user.email, subjects.length);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(subjects);
  });

  it('lets another drain send the rest while one send hangs, and every mail arrives once', async () => {
    const user = await userWith('alert-slow', { email: { transfers: true } });
    const subjects = ['Slow 1', 'Slow 2', 'Slow 3'];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = heldMailer(user.email, () => released);
    await queueDue(user, subjects);

    const answerA = drainWith(slow.mailer);
    await vi.waitFor(() => expect(slow.held).toHaveLength(1), WAIT);
    // Meanwhile the webhook calls the function again: it sends the two A is not holding.
    expect((await drainWith(mailboxMailer())).status).toBe(200);
    const others = await mailsArrived(user.email, 2);
    expect(others.map((mail) => mail.subject).sort()).toEqual(
      subjects.filter((subject) => subject !== slow.held[0]),
    );

    release();
    const answered = await answerA;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as DrainAnswer).sent).toHaveLength(1);
    await allSent(user.id, subjects.length);
    const mails = await mailsArrived(user.email, subjects.length);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(subjects);
  });

  it('gives up a send the server never answers at the deadline: the row keeps why, a later attempt and no lease', async () => {
    const user = await userWith('alert-hung', { email: { transfers: true } });
    const hung = heldMailer(user.email, () => new Promise<void>(() => {}));
    await queueDue(user, ['Never answered']);
    const tried = Date.now();

    const answer = await drainWith(hung.mailer, { sendDeadlineMs: 300 });
    expect(answer.status).toBe(200);
    const [row] = await outboxOf(user.id);
    expect(await answer.json()).toEqual({ sent: [], failed: [row?.id], refused: [] });
    expect(row).toMatchObject({ sent_at: null, attempts: 1, claimed_by: null, claimed_until: null });
    expect(row?.last_error).toMatch(/took longer than 0\.3 s/);
    expect(Date.parse(row?.next_attempt_at ?? '')).toBeGreaterThan(tried);
  });

  it('discards a mail whose recipient the server refuses for good (5xx), with the reason; a 4xx is retried', async () => {
    const user = await userWith('alert-refused', { email: { transfers: true } });
    const forGood = await refusingServer('550 5.1.1 No such user here');
    const forNow = await refusingServer('452 4.2.2 Mailbox full, try later');
    const mailerOf = (port: number) =>
      createSmtpMailer({ host: '127.0.0.1', port, user: null, pass: null, clientName: '127.0.0.1' });
    try {
      await queueDue(user, ['Refused for now']);
      const later = (await (await drainWith(mailerOf(forNow.port))).json()) as DrainAnswer;
      const [retried] = await outboxOf(user.id);
      expect(later).toEqual({ sent: [], failed: [retried?.id], refused: [] });
      expect(retried).toMatchObject({ sent_at: null, discarded_at: null, attempts: 1 });
      expect(retried?.last_error).toContain('452 4.2.2 Mailbox full');

      const due = await service
        .from('email_outbox')
        .update({ next_attempt_at: new Date().toISOString() })
        .eq('user_id', user.id);
      expect(due.error).toBeNull();
      const refused = (await (await drainWith(mailerOf(forGood.port))).json()) as DrainAnswer;
      const [row] = await outboxOf(user.id);
      expect(refused).toEqual({ sent: [], failed: [], refused: [row?.id] });
      expect(row).toMatchObject({ sent_at: null, attempts: 2, claimed_by: null });
      expect(row?.discarded_at).not.toBeNull();
      expect(row?.last_error).toContain('550 5.1.1 No such user here');
      // Discarded, it is not tried again, by this drain or any other.
      expect(await (await drainWith(mailboxMailer())).json()).toEqual({ sent: [], failed: [], refused: [] });
      expect(await mailbox.messagesTo(user.email)).toEqual([]);
    } finally {
      await forGood.stop();
      await forNow.stop();
    }
  });

  it('leaves out of its answer, and logs, a mail whose lease another drain took before it finished', async () => {
    const user = await userWith('alert-lease-lost', { email: { transfers: true } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = heldMailer(user.email, () => released);
    await queueDue(user, ['Lease lost']);
    const errors = vi.spyOn(console, 'error');
    try {
      const answerA = drainWith(slow.mailer);
      await vi.waitFor(() => expect(slow.held).toHaveLength(1), WAIT);
      // As if A's lease had run out and another drain had claimed the row.
      const [row] = await outboxOf(user.id);
      const taken = await service
        .from('email_outbox')
        .update({ claimed_by: randomUUID() })
        .eq('id', row?.id ?? '');
      expect(taken.error).toBeNull();

      release();
      const answered = await answerA;
      expect(await answered.json()).toEqual({ sent: [], failed: [], refused: [] });
      expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringContaining(`${row?.id}`),
      );
    } finally {
      errors.mockRestore();
    }
  });

  it('goes on with the next mail when finishing one fails', async () => {
    const user = await userWith('alert-finish-fails', { email: { transfers: true } });
    await queueDue(user, ['Finish fails', 'Sent after']);
    // The database stops answering for one call: the first finish.
    let failures = 1;
    const flaky = new Proxy(service, {
      get(target, key, receiver) {
        if (key !== 'rpc') return Reflect.get(target, key, receiver);
        return (fn: string, args: object) => {
          if (fn === 'finish_email_alert' && failures-- > 0) {
            return Promise.resolve({ data: null, error: { message: 'connection reset' } });
          }
          return target.rpc(fn as never, args as never);
        };
      },
    });
    const errors = vi.spyOn(console, 'error');
    try {
      const answer = await drainWith(mailboxMailer(), { supabase: flaky });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as DrainAnswer;
      const rows = await outboxOf(user.id);
      const unfinished = rows.find((row) => row.sent_at === null);
      const finished = rows.find((row) => row.sent_at !== null);
      expect(body).toEqual({ sent: [finished?.id], failed: [], refused: [] });
      expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringContaining(`${unfinished?.id}`),
      );
      const mails = await mailsArrived(user.email, 2);
      expect(mails.map((mail) => mail.subject).sort()).toEqual(['Finish fails', 'Sent after']);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('the unsubscribe link', () => {
  it('turns off the kind its mail was, and only that, without a sign-in; again is the same answer', async () => {
    const user = await userWith('alert-unsubscribe', { email: { transfers: true, bots: true } });
    await deliver(ethArriving(user.wallet));
    const [mail] = await mailsArrived(user.email, 1);
    const token = linkToken(mail as MailboxMessage);

    const first = await unsubscribe(token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ kind: 'transfers' });
    expect(await preferencesOf(user.id)).toEqual({ email: { transfers: false, bots: true } });
    const again = await unsubscribe(token);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ kind: 'transfers' });

    // The next transfer is told in the portal and not mailed; a bot still is.
    await deliver(ethArriving(user.wallet, '3'));
    expect(await notificationsOf(user)).toHaveLength(2);
    const fire = await botOf(user);
    await fire();
    await allSent(user.id, 2);
    expect((await mailbox.messagesTo(user.email)).map((each) => each.subject)).toEqual([
      'ETH Received',
      'DDEX above 8888.5 ETH',
    ]);
  });

  it('takes the one-click POST a mail client sends to the List-Unsubscribe address', async () => {
    const user = await userWith('alert-one-click', { email: { transfers: true, bots: true } });
    const fire = await botOf(user);
    await fire();
    const [mail] = await mailsArrived(user.email, 1);
    const url = /^<(.+)>$/.exec(
      headerOf(await sourceOf(mail as MailboxMessage), 'List-Unsubscribe') ?? '',
    )?.[1];
    expect(url).toBeDefined();

    const answer = await fetch(url ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ kind: 'bots' });
    expect(await preferencesOf(user.id)).toEqual({ email: { transfers: true, bots: false } });
  });

  it('sends a mail client that opens the List-Unsubscribe address (GET) to the portal’s page, turning nothing off', async () => {
    const user = await userWith('alert-get', { email: { transfers: true, bots: true } });
    await deliver(ethArriving(user.wallet));
    const [mail] = await mailsArrived(user.email, 1);
    const token = linkToken(mail as MailboxMessage);
    const url = /^<(.+)>$/.exec(
      headerOf(await sourceOf(mail as MailboxMessage), 'List-Unsubscribe') ?? '',
    )?.[1];
    expect(url).toBeDefined();

    const answer = await fetch(url ?? '', { redirect: 'manual' });
    expect(answer.status).toBe(303);
    // The page the mail's own link opens, which asks before it turns anything off.
    expect(answer.headers.get('location')).toBe(`${SITE_URL}/?unsubscribe=${token}`);
    await answer.body?.cancel();
    expect(await preferencesOf(user.id)).toEqual({ email: { transfers: true, bots: true } });

    // An altered token is sent nowhere, and its text is not repeated back.
    const altered = await fetch((url ?? '').replace(token, `${token}%3Cb%3E`), { redirect: 'manual' });
    expect(altered.status).toBe(400);
    expect(altered.headers.get('location')).toBeNull();
    expect(await altered.text()).not.toContain('<b>');
    expect(await preferencesOf(user.id)).toEqual({ email: { transfers: true, bots: true } });
  });

  it('refuses a made-up, altered or foreign-signed token and changes nothing; no token reaches the log', async () => {
    const owner = await userWith('alert-token-owner', { email: { transfers: true } });
    const victim = await userWith('alert-token-victim', { email: { transfers: true, bots: true } });
    await deliver(ethArriving(owner.wallet));
    const [mail] = await mailsArrived(owner.email, 1);
    const token = linkToken(mail as MailboxMessage);
    const [, signature] = token.split('.');
    const victimPayload = Buffer.from(JSON.stringify({ u: victim.id, k: 'transfers', v: 1 })).toString(
      'base64url',
    );

    const forged = [
      'not-a-token',
      `${victimPayload}.${signature}`,
      await makeUnsubscribeToken('not-the-project-secret', victim.id, 'bots'),
      `${token}x`,
      null,
    ];
    for (const attempt of forged) {
      const answer = await unsubscribe(attempt);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_token' });
    }
    const oneClick = await fetch(
      `${gateway.url}/functions/v1/email-unsubscribe?token=${encodeURIComponent(`${victimPayload}.${signature}`)}`,
      { method: 'POST', body: 'List-Unsubscribe=One-Click' },
    );
    expect(oneClick.status).toBe(400);
    expect(await preferencesOf(victim.id)).toEqual({ email: { transfers: true, bots: true } });
    expect(await preferencesOf(owner.id)).toEqual({ email: { transfers: true } });

    for (const secret of [token, signature ?? '-', victimPayload, gateway.emailUnsubscribeSecret]) {
      expect(functionLog.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});

/** An EIP-1193 wallet holding one key, as supabase-js asks wallets. */
function walletOf(account: PrivateKeyAccount) {
  return {
    request: async ({ method, params }: { method: string; params?: unknown }) => {
      if (method === 'eth_requestAccounts') return [account.address];
      if (method === 'eth_chainId') return '0x7a69';
      if (method === 'personal_sign') {
        const [data] = params as [Hex, string];
        return account.signMessage({ message: { raw: data } });
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

describe('in the gateway’s own process (--functions node)', () => {
  let inProcess: Gateway;
  let inbox: Mailbox;

  beforeAll(async () => {
    inbox = await startMailbox({ smtpPort: 0, webPort: 0 });
    inProcess = await startOwnGateway('email-alerts-node', {
      smtp: { ...inbox.smtp, from: LOCAL_MAIL_FROM },
      siteUrl: SITE_URL,
      functions: 'node',
    });
  });

  afterAll(async () => {
    await inProcess?.close();
    await inbox?.stop();
  });

  it('mails a transfer delivered twice once; its one-click address opened sends to the portal, and its link turns transfers off', async () => {
    const user = await signedInUser(inProcess, 'alert-node');
    await user.client
      .from('profiles')
      .upsert({ id: user.id, email: user.email, notification_preferences: { email: { transfers: true } } });
    const wallet = freshWallet().address;
    await setWalletAsServer(serviceClient(inProcess), user.id, wallet, true);
    const body = JSON.stringify(ethArriving(wallet));
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${inProcess.url}/functions/v1/process-payments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payload-hash': await signPayload(inProcess.webhookSecret, body),
        },
        body,
      });
      expect(response.status).toBe(200);
    }

    const [mail, ...others] = await vi.waitFor(async () => {
      const mails = await inbox.messagesTo(user.email);
      if (mails.length === 0) throw new Error('no mail yet');
      return mails;
    }, WAIT);
    expect(others).toEqual([]);
    expect(mail?.subject).toBe('ETH Received');
    const token = linkToken(mail as MailboxMessage);
    const opened = await fetch(
      `${inProcess.url}/functions/v1/email-unsubscribe?token=${encodeURIComponent(token)}`,
      { redirect: 'manual' },
    );
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`${SITE_URL}/?unsubscribe=${token}`);
    const answer = await fetch(`${inProcess.url}/functions/v1/email-unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(await answer.json()).toEqual({ kind: 'transfers' });
    const profile = await serviceClient(inProcess)
      .from('profiles')
      .select('notification_preferences')
      .eq('id', user.id)
      .single();
    expect(profile.data?.notification_preferences).toEqual({ email: { transfers: false } });
    await user.client.removeAllChannels();
  });
});

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ethereum } from '@tatumio/tatum';
import { getAddress, parseUnits, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Chain } from '../../stack/chain/index.ts';
import type { Gateway } from '../../stack/gateway/index.ts';
import { sendDdex } from '../support/stack/chain.ts';
import { startOwnStack, type OwnStack } from '../support/stack/own-stack.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/stack/users.ts';
import { closedPort } from '../support/closed-port.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';

// The whole webhook path while process-payments cannot be reached: the Tatum
// emulator owes a delivery for every DDEX transfer to a watched address,
// retries it with growing back-off while a proxy in front of the receiver
// answers 503, and once the proxy forwards again every transfer ends as
// exactly one history row and one notification for the owner.
//
// This file runs a chain and gateway of its own: every funded account of the
// shared contract chain already belongs to another file (tests/support/
// accounts.ts), and its own gateway can retry on a short base so the test
// stays quick. Its functions reach no Tatum, so the server's own watch of the
// proven wallet (watch-wallets) is never made: the one subscription that
// delivers is the test's, behind the proxy.

const RETRY_BASE_MS = 500;
const TRANSFERS = ['1.5', '2', '3.25'];
/** Refusals each delivery must get before the receiver comes back: enough to see the back-off grow. */
const REFUSALS = 3;
const WAIT_MS = 30_000;

type Attempt = { at: number; body: string; signature: string; status: number };

/** A stand-in for an unreachable receiver: answers 503 while down, forwards to `target` once up. */
type FlakyProxy = {
  url: string;
  attempts: Attempt[];
  bringUp(): void;
  close(): Promise<void>;
};

async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const attempts: Attempt[] = [];
  let up = false;
  const server: Server = createServer((request, response) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers['x-payload-hash'] ?? '');
      const answer = async (): Promise<{ status: number; text: string }> => {
        if (!up) return { status: 503, text: '{"error":"Service Unavailable"}' };
        const forwarded = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-payload-hash': signature },
          body,
        });
        return { status: forwarded.status, text: await forwarded.text() };
      };
      answer()
        .catch((error: unknown) => ({ status: 502, text: JSON.stringify({ error: String(error) }) }))
        .then(({ status, text }) => {
          attempts.push({ at, body, signature, status });
          response.writeHead(status, { 'content-type': 'application/json' }).end(text);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/process-payments`,
    attempts,
    bringUp: () => {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const txIdOf = (attempt: Attempt): string => (JSON.parse(attempt.body) as { txId: string }).txId;

let ownStack: OwnStack;
let chain: Chain;
let gateway: Gateway;
let tatum: Ethereum;
let proxy: FlakyProxy;
let service: Client;
let owner: TestUser;
let functionUrl: string;

beforeAll(async () => {
  const functionsTatumUrl = `http://127.0.0.1:${await closedPort()}/v4/`;
  ownStack = await startOwnStack('receiver-down', (own) => ({
    tokenAddress: own.tokenAddress,
    rpcUrl: own.rpcUrl,
    webhookRetryBaseMs: RETRY_BASE_MS,
    functionsTatumUrl,
  }));
  ({ chain, gateway } = ownStack);
  const stack = { url: gateway.url, anonKey: gateway.anonKey, serviceRoleKey: gateway.serviceRoleKey };
  service = serviceClient(stack);
  functionUrl = `${gateway.url}/functions/v1/process-payments`;
  tatum = await localTatum(gateway.tatumApiUrl ?? '', chain.rpcUrl, gateway.tatumApiKey);
  proxy = await startFlakyProxy(functionUrl);
  owner = await signedInUser(stack, 'receiver-down');
}, 120_000);

afterAll(async () => {
  await tatum?.destroy();
  await proxy?.close();
  await ownStack?.close();
  process.env['TATUM_URL'] = inject('gateway').tatumApiUrl;
});

async function recordsOf(userId: string) {
  const [transactions, notifications] = await Promise.all([
    service.from('transactions').select('*').eq('user_id', userId).order('created_at'),
    service.from('user_notifications').select('*').eq('user_id', userId).order('created_at'),
  ]);
  if (transactions.error || notifications.error) throw new Error('reading the owner’s records failed');
  return { transactions: transactions.data, notifications: notifications.data };
}

describe('webhooks while the receiver is down', () => {
  let hashes: Hex[];

  it('keeps every transfer: retried with growing gaps, then recorded exactly once', async () => {
    // The owner's wallet is fresh, so no other transfer on this chain touches it; it stands
    // proven, as link-wallet leaves a wallet (only a proven one is told of its transfers).
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const saved = await setWalletAsServer(service, owner.id, wallet, true);
    expect(saved.wallet_address).toBe(wallet);
    const subscription = await tatum.notification.subscribe.addressEvent({ address: wallet, url: proxy.url });
    expect(subscription.status).toBe('SUCCESS');

    const sender = chain.accounts[1];
    if (!sender) throw new Error('the chain has no funded sender');
    hashes = [];
    for (const amount of TRANSFERS) {
      hashes.push(await sendDdex(chain, sender, { address: wallet }, parseUnits(amount, 18)));
    }

    const attemptsFor = (hash: Hex) => proxy.attempts.filter((attempt) => txIdOf(attempt) === hash);
    await expect
      .poll(() => hashes.every((hash) => attemptsFor(hash).length >= REFUSALS), {
        message: 'every transfer refused several times',
        timeout: WAIT_MS,
      })
      .toBe(true);
    // Nothing got through while the receiver was down.
    expect(await recordsOf(owner.id)).toEqual({ transactions: [], notifications: [] });

    proxy.bringUp();
    await expect
      .poll(() => hashes.every((hash) => attemptsFor(hash).some((attempt) => attempt.status === 200)), {
        message: 'every transfer delivered',
        timeout: WAIT_MS,
      })
      .toBe(true);

    for (const hash of hashes) {
      const attempts = attemptsFor(hash);
      // Refused until the receiver came back, then taken once and never sent again.
      expect(attempts.map((attempt) => attempt.status)).toEqual([
        ...Array<number>(attempts.length - 1).fill(503),
        200,
      ]);
      expect(attempts.length).toBeGreaterThan(REFUSALS);
      // The same signed event every time.
      expect(new Set(attempts.map((attempt) => `${attempt.signature} ${attempt.body}`)).size).toBe(1);
      // The waits grow from the retry base (doubling): never a tight loop, and the last well over
      // the first. Compared end to end because the dispatcher serves the events one after another,
      // so any single wait may run late by the time the others take.
      const gaps = attempts.slice(1).map((attempt, index) => attempt.at - (attempts[index]?.at ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8);
      expect(gaps.at(-1)).toBeGreaterThan((gaps[0] ?? Infinity) * 1.5);
    }

    // The emulator's own books agree: nothing is still owed, and it counted the same attempts. It
    // writes a delivery down once the receiver's answer is in, a moment after the proxy saw it.
    const books = () =>
      gateway.pg.query<{ delivered: boolean; attempts: number; body: string }>(
        `select delivered_at is not null as delivered, attempts, body from _tatum.deliveries
          where subscription_id = $1`,
        [subscription.data?.id],
      );
    await expect
      .poll(async () => (await books()).rows.every((row) => row.delivered), {
        message: 'the emulator wrote every delivery down',
        timeout: WAIT_MS,
      })
      .toBe(true);
    const owed = await books();
    expect(owed.rows).toHaveLength(TRANSFERS.length);
    for (const row of owed.rows) {
      expect(row.delivered).toBe(true);
      expect(row.attempts).toBe(proxy.attempts.filter((attempt) => attempt.body === row.body).length);
    }

    const { transactions, notifications } = await recordsOf(owner.id);
    expect(transactions.map((row) => row.tx_hash).sort()).toEqual([...hashes].sort());
    hashes.forEach((hash, index) => {
      expect(transactions.find((row) => row.tx_hash === hash)).toMatchObject({
        type: 'token_received',
        status: 'confirmed',
        amount: TRANSFERS[index],
        token_symbol: 'DDEX',
      });
    });
    expect(notifications).toHaveLength(TRANSFERS.length);
    expect(notifications.map((row) => row.title)).toEqual(TRANSFERS.map(() => 'DDEX Received'));
    for (const hash of hashes) {
      expect(notifications.filter((row) => row.message.includes(`(tx ${hash.slice(0, 10)}…)`))).toHaveLength(
        1,
      );
    }
  }, 60_000);

  it('records a delivery repeated three times after it succeeded only once', async () => {
    const delivered = proxy.attempts.find((attempt) => attempt.status === 200);
    if (!delivered) throw new Error('the previous test delivered nothing to repeat');
    const before = await recordsOf(owner.id);
    expect(before.transactions).toHaveLength(TRANSFERS.length);

    for (let repeat = 0; repeat < 3; repeat += 1) {
      const response = await fetch(functionUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payload-hash': delivered.signature },
        body: delivered.body,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, recorded: 0 });
    }

    expect(await recordsOf(owner.id)).toEqual(before);
  });
});

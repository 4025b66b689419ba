import { randomBytes, randomUUID } from 'node:crypto';
import type { RealtimePostgresInsertPayload } from '@supabase/supabase-js';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { createProcessPaymentsHandler } from '../../supabase/functions/process-payments/handler.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { subscribed } from '../support/realtime.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/stack/users.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';
import { chunked } from '../support/streams.ts';

// process-payments end to end: Tatum's signed address-event deliveries, sent to
// the gateway as Tatum sends them (no apikey, no JWT), become one transaction
// row and one notification for the proven owner of the address, however often
// they arrive.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

const stack = inject('gateway');
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/process-payments`;
const COUNTER = '0x1234567890abcdef1234567890ABCDEF12345678';
const WAIT_MS = 5_000;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;
const randomTxId = (): string => `0x${randomBytes(32).toString('hex')}`;

type EventFields = {
  address: string;
  amount: string;
  asset: string;
  type: 'native' | 'internal' | 'fungible' | 'token' | 'fee';
  txId: string;
  counterAddress: string | null;
  chain: string;
};

function addressEvent(
  fields: Partial<EventFields> & { address: string },
): EventFields & Record<string, unknown> {
  return {
    amount: '1.5',
    asset: 'ETH',
    blockNumber: 1234,
    counterAddress: COUNTER,
    txId: randomTxId(),
    type: 'native',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
    ...fields,
  };
}

/** POSTs a body the way Tatum does; hash undefined signs it with the stack's secret, null sends none. */
async function deliver(
  body: string,
  hash?: string | null,
  { stream = false, url = FUNCTION_URL } = {},
): Promise<Response> {
  const signature = hash === undefined ? await signPayload(stack.webhookSecret, body) : hash;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-payload-hash': signature }),
    },
    // A stream has no length: it goes chunked, and only reading it tells its size.
    body: stream ? chunked(body) : body,
    duplex: 'half',
  } as RequestInit);
}

/**
 * A signed-in user whose saved profile holds wallet (stored exactly as given), as link-wallet
 * leaves it after a proof; `verified: false` leaves it as a wallet no proof stands behind.
 */
async function owner(label: string, wallet: string, { verified = true } = {}): Promise<TestUser> {
  const user = await signedInUser(stack, label);
  clients.push(user.client);
  const { error } = await user.client.from('profiles').upsert({ id: user.id, email: user.email });
  if (error) throw new Error(`profile upsert failed: ${error.message}`);
  await setWalletAsServer(service, user.id, wallet, verified);
  return user;
}

async function recordsOf(userId: string) {
  const [transactions, notifications] = await Promise.all([
    service.from('transactions').select('*').eq('user_id', userId),
    service.from('user_notifications').select('*').eq('user_id', userId),
  ]);
  expect(transactions.error).toBeNull();
  expect(notifications.error).toBeNull();
  return { transactions: transactions.data ?? [], notifications: notifications.data ?? [] };
}

async function rowsWithHash(txId: string) {
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txId);
  expect(error).toBeNull();
  return data ?? [];
}

const expectOk = async (response: Response, recorded: number) => {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, recorded });
};

describe('process-payments records signed deliveries', () => {
  it('records an incoming transfer once for the owner, matching the address in any letter case', async () => {
    const hex = randomBytes(20).toString('hex');
    const user = await owner('incoming', `0x${hex.toUpperCase()}`);
    const event = addressEvent({ address: `0x${hex}`, amount: '12.5' });
    const body = JSON.stringify(event);

    await expectOk(await deliver(body), 1);

    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toEqual([
      expect.objectContaining({
        user_id: user.id,
        type: 'native_received',
        status: 'confirmed',
        amount: '12.5',
        token_symbol: 'ETH',
        tx_hash: event.txId,
      }),
    ]);
    expect(notifications).toEqual([
      expect.objectContaining({
        user_id: user.id,
        title: 'ETH Received',
        message: `You received 12.5 ETH from 0x1234…5678 (tx ${event.txId.slice(0, 10)}…).`,
        is_read: false,
      }),
    ]);

    // Tatum redelivers until it sees a 2xx; a repeat must change nothing.
    const again = await deliver(body);
    await expectOk(again, 0);
    const after = await recordsOf(user.id);
    expect(after.transactions).toEqual(transactions);
    expect(after.notifications).toEqual(notifications);
  });

  it('records 5 concurrent deliveries of one event once', async () => {
    const address = randomAddress();
    const user = await owner('concurrent', address);
    const body = JSON.stringify(
      addressEvent({ address, type: 'token', asset: randomAddress(), amount: '3' }),
    );

    const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(body)));
    const payloads = await Promise.all(
      responses.map(async (response) => {
        expect(response.status).toBe(200);
        return (await response.json()) as { received: boolean; recorded: number };
      }),
    );
    expect(payloads.every((p) => p.received)).toBe(true);
    expect(payloads.map((p) => p.recorded).sort()).toEqual([0, 0, 0, 0, 1]);

    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toHaveLength(1);
    expect(notifications).toHaveLength(1);
  });

  it('records an outgoing transfer as sent, keeping the sign of the amount, without a word', async () => {
    const address = randomAddress();
    const user = await owner('outgoing', address);
    const event = addressEvent({ address, amount: '-0.25' });

    await expectOk(await deliver(JSON.stringify(event)), 1);

    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toEqual([
      expect.objectContaining({
        type: 'native_sent',
        amount: '-0.25',
        token_symbol: 'ETH',
        tx_hash: event.txId,
      }),
    ]);
    // The user made it: the portal toasts its own sends, and a notification would replace that toast.
    expect(notifications).toEqual([]);
  });

  it('records the event for the one profile that holds the address: no second profile can hold it', async () => {
    const hex = randomBytes(20).toString('hex');
    const first = await owner('shared-a', `0x${hex}`);
    const second = await signedInUser(stack, 'shared-b');
    // One owner per address, whatever its letter case (migration 20261124000001).
    await expect(setWalletAsServer(service, second.id, `0x${hex.toUpperCase()}`, true)).rejects.toThrow(
      /23505/,
    );

    await expectOk(await deliver(JSON.stringify(addressEvent({ address: `0x${hex}` }))), 1);

    expect(await recordsOf(first.id)).toMatchObject({
      transactions: [expect.objectContaining({ user_id: first.id })],
      notifications: [expect.objectContaining({ user_id: first.id })],
    });
    expect(await recordsOf(second.id)).toEqual({ transactions: [], notifications: [] });
  });

  it('records nothing for a wallet no proof stands behind', async () => {
    // A wallet written without a proof (as every client-written one before proofs existed):
    // the address says nothing about who holds the key, so nobody is told of its transfers.
    const address = randomAddress();
    const user = await owner('unproven', address, { verified: false });
    const event = addressEvent({ address, amount: '4' });

    await expectOk(await deliver(JSON.stringify(event)), 0);

    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });
    expect(await rowsWithHash(event.txId)).toEqual([]);
  });

  it('answers an unknown address with 200 and records nothing', async () => {
    const event = addressEvent({ address: randomAddress() });
    await expectOk(await deliver(JSON.stringify(event)), 0);
    expect(await rowsWithHash(event.txId)).toEqual([]);
  });

  it('sends the notification over Realtime to the owner’s subscribed channel', async () => {
    const address = randomAddress();
    const user = await owner('realtime', address);
    const events: RealtimePostgresInsertPayload<NotificationRow>[] = [];
    const channel = user.client
      .channel(`payments-${randomUUID()}`)
      .on<NotificationRow>(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${user.id}` },
        (payload) => events.push(payload),
      );
    await subscribed(channel, WAIT_MS);

    const event = addressEvent({ address, amount: '7' });
    await expectOk(await deliver(JSON.stringify(event)), 1);

    await vi.waitFor(() => expect(events).toHaveLength(1), { timeout: WAIT_MS, interval: 20 });
    expect(events[0]?.new).toMatchObject({
      user_id: user.id,
      title: 'ETH Received',
      message: `You received 7 ETH from 0x1234…5678 (tx ${event.txId.slice(0, 10)}…).`,
    });
  });
});

describe('process-payments records each kind of a transaction once', () => {
  it('records another token’s transfer and the transaction’s ETH value, each once and told once', async () => {
    // Neither touches DDEX nor is a fee, so the event alone says it all: no receipt is read.
    const address = randomAddress();
    const user = await owner('mixed', address);
    const txId = randomTxId();
    const otherToken = randomAddress();
    const events = [
      addressEvent({ address, txId, type: 'fungible', asset: otherToken, amount: '5' }),
      addressEvent({ address, txId, type: 'native', amount: '0.5' }),
    ];
    for (const event of events) await expectOk(await deliver(JSON.stringify(event)), 1);
    for (const event of events) await expectOk(await deliver(JSON.stringify(event)), 0);
    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions.map((row) => [row.type, row.token_symbol, row.counterparty]).sort()).toEqual([
      ['native_received', 'ETH', COUNTER.toLowerCase()],
      ['token_received', otherToken, COUNTER.toLowerCase()],
    ]);
    expect(notifications).toHaveLength(2);
  });
});

describe('process-payments takes only confirmed events of its chain', () => {
  it('answers an event of another chain with 200 and records nothing', async () => {
    const address = randomAddress();
    const user = await owner('other-chain', address);
    const event = addressEvent({ address, amount: '3' });

    for (const chain of ['ethereum-mainnet', 'polygon-amoy', 'ETH']) {
      await expectOk(await deliver(JSON.stringify({ ...event, chain })), 0);
    }
    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });
    // The same event on the stack's chain (TATUM_CHAIN, ethereum-sepolia) is recorded.
    await expectOk(await deliver(JSON.stringify(event)), 1);
    expect((await recordsOf(user.id)).transactions).toEqual([
      expect.objectContaining({ tx_hash: event.txId, amount: '3' }),
    ]);
  });

  it('skips a mempool event and records the transfer when its block event arrives', async () => {
    const address = randomAddress();
    const user = await owner('mempool', address);
    const event = addressEvent({ address, amount: '1.25' });
    // Seen in the mempool, not yet in a block: it may never be mined, so nobody is told yet.
    const pending = { ...event, mempool: true, blockNumber: null };

    await expectOk(await deliver(JSON.stringify(pending)), 0);
    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });

    await expectOk(await deliver(JSON.stringify({ ...event, mempool: false })), 1);
    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toEqual([
      expect.objectContaining({ tx_hash: event.txId, status: 'confirmed', amount: '1.25' }),
    ]);
    expect(notifications).toEqual([expect.objectContaining({ title: 'ETH Received' })]);
  });

  it('logs why it skipped a delivery', async () => {
    const secret = 'chain-test-secret';
    const handler = createProcessPaymentsHandler({ webhookSecret: secret, supabase: service });
    const handle = async (event: Record<string, unknown>) => {
      const body = JSON.stringify(event);
      return handler(
        new Request(FUNCTION_URL, {
          method: 'POST',
          headers: { 'x-payload-hash': await signPayload(secret, body) },
          body,
        }),
      );
    };
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const event = addressEvent({ address: randomAddress() });
      await expectOk(await handle({ ...event, chain: 'ethereum-mainnet' }), 0);
      await expectOk(await handle({ ...event, mempool: true }), 0);
      expect(warned.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(/ethereum-mainnet is not the configured chain ethereum-sepolia/),
        expect.stringMatching(new RegExp(`mempool event of ${event.txId}`)),
      ]);
    } finally {
      warned.mockRestore();
    }
  });

  it('records the chain it is configured for (TATUM_CHAIN) and no other', async () => {
    const secret = 'mainnet-test-secret';
    const mainnet = createProcessPaymentsHandler({
      webhookSecret: secret,
      supabase: service,
      chain: 'ethereum-mainnet',
    });
    const address = randomAddress();
    const user = await owner('mainnet', address);
    const deliverTo = async (event: Record<string, unknown>) => {
      const body = JSON.stringify(event);
      return mainnet(
        new Request(FUNCTION_URL, {
          method: 'POST',
          headers: { 'x-payload-hash': await signPayload(secret, body) },
          body,
        }),
      );
    };
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const event = addressEvent({ address, amount: '8' });
      await expectOk(await deliverTo(event), 0);
      await expectOk(await deliverTo({ ...event, chain: 'ethereum-mainnet' }), 1);
    } finally {
      warned.mockRestore();
    }
    expect((await recordsOf(user.id)).transactions).toEqual([expect.objectContaining({ amount: '8' })]);
  });
});

describe('process-payments limits what it reads', () => {
  // The Deno server itself: the gateway in front of it refuses such bodies first, and so may the
  // hosted platform's edge, but the function does not count on either.
  const DIRECT_URL = stack.functions.urls['process-payments'] ?? '';

  it('refuses a body past 64 KB with 413, declared or chunked, and records nothing', async () => {
    const address = randomAddress();
    const user = await owner('too-large', address);
    const body = JSON.stringify({ ...addressEvent({ address }), padding: 'x'.repeat(70 * 1024) });

    for (const stream of [false, true]) {
      const response = await deliver(body, undefined, { stream, url: DIRECT_URL });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        error: 'Payload too large',
        message: 'An address event is at most 64 KB',
      });
    }
    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });

    // A chunked body within the limit is read whole and recorded.
    const small = JSON.stringify(addressEvent({ address }));
    await expectOk(await deliver(small, undefined, { stream: true, url: DIRECT_URL }), 1);
  });
});

describe('process-payments refuses deliveries it cannot trust', () => {
  it('refuses a delivery without a signature with 401 and writes nothing', async () => {
    const address = randomAddress();
    const user = await owner('unsigned', address);
    const response = await deliver(JSON.stringify(addressEvent({ address })), null);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Invalid signature', message: expect.any(String) });
    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });
  });

  it('refuses a signature made with another secret, and a body altered after signing, with 401', async () => {
    const address = randomAddress();
    const user = await owner('forged', address);
    const body = JSON.stringify(addressEvent({ address, amount: '1' }));

    const otherSecret = await deliver(body, await signPayload('not-the-webhook-secret', body));
    expect(otherSecret.status).toBe(401);
    expect(await otherSecret.json()).toMatchObject({ error: 'Invalid signature' });

    const altered = body.replace('"amount":"1"', '"amount":"1000"');
    expect(altered).not.toBe(body);
    const tampered = await deliver(altered, await signPayload(stack.webhookSecret, body));
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ error: 'Invalid signature' });

    const garbage = await deliver(body, 'not base64 at all!');
    expect(garbage.status).toBe(401);

    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });
  });

  it('refuses a malformed, correctly signed body with 400 and writes nothing', async () => {
    const address = randomAddress();
    const user = await owner('malformed', address);
    const response = await deliver(JSON.stringify({ ...addressEvent({ address }), txId: 'not-a-hash' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'Malformed body',
      problems: [expect.stringMatching(/^txId must be/)],
    });
    expect(await recordsOf(user.id)).toEqual({ transactions: [], notifications: [] });
  });
});

describe('process-payments with a configured DDEX token address', () => {
  // Without a chain to ask (no RPC_URL), each event is recorded as it stands: this drives the same
  // handler directly against the stack's database with a token address configured.
  const secret = 'direct-test-secret';
  const tokenAddress = randomAddress();
  const handler = createProcessPaymentsHandler({ webhookSecret: secret, supabase: service, tokenAddress });

  async function handle(event: Record<string, unknown>): Promise<Response> {
    const body = JSON.stringify(event);
    return handler(
      new Request(FUNCTION_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payload-hash': await signPayload(secret, body) },
        body,
      }),
    );
  }

  it('records transfers of the DDEX contract as DDEX and other tokens by their contract', async () => {
    const address = randomAddress();
    const user = await owner('ddex', address);
    // Tatum's v3 name for a fungible transfer, and the contract in any letter case.
    const ddex = addressEvent({
      address,
      type: 'token',
      asset: `0x${tokenAddress.slice(2).toUpperCase()}`,
      amount: '12.5',
    });
    const otherToken = `0x${'ab'.repeat(20)}`;
    const other = addressEvent({ address, type: 'fungible', asset: otherToken, amount: '-2' });

    await expectOk(await handle(ddex), 1);
    await expectOk(await handle(other), 1);

    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'token_received',
          amount: '12.5',
          token_symbol: 'DDEX',
          tx_hash: ddex.txId,
        }),
        expect.objectContaining({
          type: 'token_sent',
          amount: '-2',
          token_symbol: otherToken,
          tx_hash: other.txId,
        }),
      ]),
    );
    expect(transactions).toHaveLength(2);
    // What arrived is told; what the wallet sent is not (history-words.ts).
    expect(notifications).toEqual([
      expect.objectContaining({
        title: 'DDEX Received',
        message: `You received 12.5 DDEX from 0x1234…5678 (tx ${ddex.txId.slice(0, 10)}…).`,
      }),
    ]);
  });

  it('records a fee as a fee, without a word', async () => {
    const address = randomAddress();
    const user = await owner('fee', address);
    const fee = addressEvent({ address, type: 'fee', amount: '-0.000021', counterAddress: null });

    await expectOk(await handle(fee), 1);

    const { transactions, notifications } = await recordsOf(user.id);
    expect(transactions).toEqual([
      expect.objectContaining({ type: 'fee', amount: '-0.000021', token_symbol: 'ETH', tx_hash: fee.txId }),
    ]);
    expect(notifications).toEqual([]);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Gateway } from '../../stack/gateway/index.ts';
import { createTatumApi, type TatumApi } from '../../supabase/functions/_shared/tatum.ts';
import {
  createNativeBalanceHandler,
  type RateLimit,
} from '../../supabase/functions/native-balance/handler.ts';
import { createTatumService, TatumServiceError } from '../../src/services/tatum/index.ts';
import {
  anonClient,
  serviceClient,
  signedInUser,
  type Client,
  type TestUser,
} from '../support/stack/users.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';

// The Tatum key stays on the server: tatum-webhooks acts only for the signed-in caller and only on
// their proven wallet, and native-balance answers anyone with the anon key, one address at a
// time and a limited number of times per client. Driven as the portal drives them: the browser's
// Tatum service over the unmodified supabase-js, with each user's own session.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const PROCESS_PAYMENTS = `${stack.url}/functions/v1/process-payments`;

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const tatumOf = (client: Client) => createTatumService({ client: () => Promise.resolve(client) });

async function refusal(promise: Promise<unknown>): Promise<TatumServiceError> {
  const error: unknown = await promise.then(
    () => new Error('expected a refusal'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TatumServiceError)) throw error;
  return error;
}

/** A user whose profile holds a wallet only the server could have written, proven or not. */
async function userWithWallet(label: string, verified = true): Promise<TestUser & { wallet: string }> {
  const user = await signedInUser(stack, label);
  const wallet = freshAddress();
  await setWalletAsServer(service, user.id, wallet, verified);
  return { ...user, wallet };
}

/** Every subscription the Tatum account holds (to `url` alone, when given), as the key's owner sees them. */
async function accountSubscriptions(url?: string): Promise<{ id: string; address: string }[]> {
  const tatum = await localTatum(stack.tatumApiUrl, chain.rpcUrl, stack.tatumApiKey);
  try {
    const ids: { id: string; address: string }[] = [];
    for (let page = 0; ; page++) {
      const answer = await tatum.notification.getAll({ pageSize: 50, offset: page });
      const rows = answer.data ?? [];
      const kept = url === undefined ? rows : rows.filter((row) => row.url === url);
      ids.push(...kept.map((row) => ({ id: row.id, address: row.address ?? '' })));
      if (rows.length < 50) return ids;
    }
  } finally {
    await tatum.destroy();
  }
}

describe('tatum-webhooks: each user reaches only their own subscriptions', () => {
  let first: TestUser & { wallet: string };
  let second: TestUser & { wallet: string };

  beforeAll(async () => {
    [first, second] = await Promise.all([userWithWallet('hooks-first'), userWithWallet('hooks-second')]);
  });

  it("subscribes the caller's proven wallet to process-payments and records it as theirs", async () => {
    const hook = await tatumOf(first.client).createAddressWebhook({ address: first.wallet.toLowerCase() });
    expect(hook).toMatchObject({ address: first.wallet, url: PROCESS_PAYMENTS, type: 'ADDRESS_EVENT' });
    expect(await accountSubscriptions()).toContainEqual({ id: hook.id, address: first.wallet });
    const own = await first.client.from('tatum_subscriptions').select('id, user_id, address, url');
    expect(own.data).toEqual([
      { id: hook.id, user_id: first.id, address: first.wallet, url: PROCESS_PAYMENTS },
    ]);
    expect(await tatumOf(first.client).listWebhooks()).toEqual([hook]);
  });

  it("hides the first user's subscription from the second, in the function and in the table", async () => {
    expect(await tatumOf(second.client).listWebhooks()).toEqual([]);
    const rows = await second.client.from('tatum_subscriptions').select('id');
    expect(rows.data).toEqual([]);
    expect((await anonClient(stack).from('tatum_subscriptions').select('id')).data).toEqual([]);
  });

  it("leaves the first user's subscription when the second deletes, by id or as 'first'", async () => {
    const [hook] = await tatumOf(first.client).listWebhooks();
    if (!hook) throw new Error('the first user has no subscription');
    const byId = await refusal(tatumOf(second.client).deleteWebhook(hook.id));
    expect(byId).toMatchObject({ operation: 'deleteWebhook', code: 'not_found' });
    // Delete First Hook as the portal runs it: the caller's list, then its first entry.
    expect(await tatumOf(second.client).listWebhooks()).toEqual([]);
    expect(await accountSubscriptions()).toContainEqual({ id: hook.id, address: first.wallet });
    expect(await tatumOf(first.client).listWebhooks()).toEqual([hook]);
  });

  it("deletes the caller's own first subscription at Tatum and from their list", async () => {
    const second_hook = await tatumOf(second.client).createAddressWebhook({ address: second.wallet });
    const [firstOfFirst] = await tatumOf(first.client).listWebhooks();
    if (!firstOfFirst) throw new Error('the first user has no subscription');
    await tatumOf(first.client).deleteWebhook(firstOfFirst.id);
    expect(await tatumOf(first.client).listWebhooks()).toEqual([]);
    const account = await accountSubscriptions();
    expect(account.map((row) => row.id)).not.toContain(firstOfFirst.id);
    expect(account).toContainEqual({ id: second_hook.id, address: second.wallet });
    await tatumOf(second.client).deleteWebhook(second_hook.id);
  });

  it('subscribes no wallet but the caller’s proven one', async () => {
    const unproven = await userWithWallet('hooks-unproven', false);
    const refused = await refusal(
      tatumOf(unproven.client).createAddressWebhook({ address: unproven.wallet }),
    );
    expect(refused).toMatchObject({ code: 'wallet_unverified' });
    const someoneElses = await refusal(
      tatumOf(second.client).createAddressWebhook({ address: first.wallet }),
    );
    expect(someoneElses).toMatchObject({ code: 'wallet_unverified' });
    const addresses = (await accountSubscriptions()).map((row) => row.address.toLowerCase());
    expect(addresses).not.toContain(unproven.wallet.toLowerCase());
  });

  it('gives a relinked wallet to its new owner: the old subscription goes, at Tatum and from the old list', async () => {
    const before = await userWithWallet('hooks-before');
    const after = await signedInUser(stack, 'hooks-after');
    const old = await tatumOf(before.client).createAddressWebhook({ address: before.wallet });
    // The first owner relinks to another wallet; the second proves the first one's old wallet.
    await setWalletAsServer(service, before.id, freshAddress(), true);
    await setWalletAsServer(service, after.id, before.wallet, true);
    const taken = await tatumOf(after.client).createAddressWebhook({ address: before.wallet });
    expect(taken).toMatchObject({ address: before.wallet, url: PROCESS_PAYMENTS });
    expect(await tatumOf(before.client).listWebhooks()).toEqual([]);
    expect(await tatumOf(after.client).listWebhooks()).toEqual([taken]);
    const account = (await accountSubscriptions()).map((row) => row.id);
    expect(account).toContain(taken.id);
    expect(account).not.toContain(old.id);
    await tatumOf(after.client).deleteWebhook(taken.id);
  });

  it('holds at most five subscriptions per user, and says so', async () => {
    const collector = await userWithWallet('hooks-collector');
    const made: string[] = [];
    for (let hook = 0; hook < 5; hook++) {
      // Tatum holds one subscription per address and URL, so each needs a wallet of its own.
      if (hook > 0) await setWalletAsServer(service, collector.id, freshAddress(), true);
      const profile = await service.from('profiles').select('wallet_address').eq('id', collector.id).single();
      const wallet = profile.data?.wallet_address ?? '';
      made.push((await tatumOf(collector.client).createAddressWebhook({ address: wallet })).id);
    }
    const sixth = freshAddress();
    await setWalletAsServer(service, collector.id, sixth, true);
    const refused = await refusal(tatumOf(collector.client).createAddressWebhook({ address: sixth }));
    expect(refused).toMatchObject({ operation: 'createAddressWebhook', code: 'webhook_limit' });
    // The server watches the proven sixth wallet under a URL of its own; no demo hook has it.
    const addresses = (await accountSubscriptions(PROCESS_PAYMENTS)).map((row) => row.address.toLowerCase());
    expect(addresses).not.toContain(sixth.toLowerCase());
    expect((await tatumOf(collector.client).listWebhooks()).map((hook) => hook.id)).toEqual(made);
    for (const id of made) await tatumOf(collector.client).deleteWebhook(id);
  });

  it("answers a malformed id in the path as the caller's mistake (400), not the function's", async () => {
    const { data } = await first.client.auth.getSession();
    const answer = await fetch(`${stack.url}/functions/v1/tatum-webhooks/%E0%A4%A`, {
      method: 'DELETE',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${data.session?.access_token ?? ''}` },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'malformed' });
  });

  it('refuses every call without a session, before the function runs', async () => {
    const visitor = tatumOf(anonClient(stack));
    expect(await refusal(visitor.listWebhooks())).toMatchObject({ code: 'not_signed_in' });
    expect(await refusal(visitor.createAddressWebhook({ address: first.wallet }))).toMatchObject({
      code: 'not_signed_in',
    });
    const bare = await fetch(`${stack.url}/functions/v1/tatum-webhooks`, {
      headers: { apikey: stack.anonKey },
    });
    expect(bare.status).toBe(401);
  });
});

describe('native-balance: anyone with the anon key, one valid address at a time', () => {
  it('reads the balance of an address with the anon key alone', async () => {
    const funded = chain.accounts[0]?.address ?? '';
    const balance = await tatumOf(anonClient(stack)).getNativeBalance(funded);
    expect(balance.asset).toBe('ETH');
    expect(Number(balance.balance)).toBeGreaterThan(0);
    expect(await tatumOf(anonClient(stack)).getNativeBalance(freshAddress())).toEqual({
      balance: '0',
      asset: 'ETH',
    });
  });

  it('refuses a malformed address, and a caller without the project’s key', async () => {
    for (const address of ['0x1234', 'not an address', `${freshAddress()}00`, '']) {
      const refused = await refusal(tatumOf(anonClient(stack)).getNativeBalance(address));
      expect(refused, address).toMatchObject({ operation: 'getNativeBalance', code: 'malformed' });
    }
    const noKey = await fetch(`${stack.url}/functions/v1/native-balance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: freshAddress() }),
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('native-balance: a client that asks too often', () => {
  // A stack of its own, with a small limit: every local caller is 127.0.0.1 to the function,
  // so on the shared stack this would hold back every other test file.
  const LIMIT = 3;
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startOwnGateway('balance-limit', {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      balanceRateLimit: `${LIMIT}/3600`,
      functionLog: () => {},
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('answers 429 with Retry-After once the limit is spent, whatever it asks and however it says who it is', async () => {
    const client = anonClient({
      url: gateway.url,
      anonKey: gateway.anonKey,
      serviceRoleKey: gateway.serviceRoleKey,
    });
    const tatum = tatumOf(client);
    for (let asked = 0; asked < LIMIT; asked++) await tatum.getNativeBalance(freshAddress());
    const limited = await refusal(tatum.getNativeBalance(freshAddress()));
    expect(limited, limited.message).toMatchObject({ operation: 'getNativeBalance', code: 'rate_limited' });
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(3600);

    // A header of its own does not make it another client: the gateway writes x-forwarded-for.
    const { error } = await client.functions.invoke('native-balance', {
      body: { address: freshAddress() },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const answer = (error as FunctionsHttpError).context as Response;
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('native-balance as the platform runs it: behind an edge that appends the client it saw', () => {
  // The handler itself, on the shared stack's database: the local gateway replaces
  // x-forwarded-for, a hosted edge appends to what the client sent. Each test's clients are
  // addresses of its own, so no other caller's count meets them.
  const zeroBalance: TatumApi = {
    subscribe: () => Promise.reject(new Error('not used')),
    unsubscribe: () => Promise.reject(new Error('not used')),
    nativeBalance: () => Promise.resolve({ balance: '0', asset: 'ETH' }),
  };
  const handlerWith = (limit: RateLimit, ceiling: RateLimit, tatum: TatumApi = zeroBalance) =>
    createNativeBalanceHandler({ supabase: service, tatum, apiKeys: [stack.anonKey], limit, ceiling });
  const someAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
  const ask = (handler: (request: Request) => Promise<Response>, forwardedFor: string) =>
    handler(
      new Request(`${stack.url}/functions/v1/native-balance`, {
        method: 'POST',
        headers: {
          apikey: stack.anonKey,
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
        body: JSON.stringify({ address: freshAddress() }),
      }),
    );

  it('counts a client by the address the edge appended, whatever it puts in front', async () => {
    const handler = handlerWith(
      { requests: 2, windowSeconds: 3600 },
      { requests: 1_000_000, windowSeconds: 3600 },
    );
    const client = someAddress();
    const statuses: number[] = [];
    for (let asked = 0; asked < 3; asked++) {
      statuses.push((await ask(handler, `${someAddress()}, ${someAddress()}, ${client}`)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Another client behind the same forged entries is counted apart.
    expect((await ask(handler, `${client}, ${someAddress()}`)).status).toBe(200);
  });

  it('holds back every client once all of them together reach the ceiling', async () => {
    // The ceiling's count is the project's; this stack's other callers may have spent some of it.
    const CEILING = 3;
    const handler = handlerWith(
      { requests: 1_000, windowSeconds: 3600 },
      { requests: CEILING, windowSeconds: 3600 },
    );
    const answers: Response[] = [];
    for (let asked = 0; asked <= CEILING; asked++) answers.push(await ask(handler, someAddress()));
    const limited = answers.at(-1);
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited?.json()).toMatchObject({ code: 'busy' });
    // A client never seen before waits too.
    expect((await ask(handler, someAddress())).status).toBe(429);
  });
});

describe('a node whose refusal quotes its URL', () => {
  // Node providers carry their key in the RPC URL, and their refusals may quote it.
  const PROVIDER_KEY = 'provider-key-0123456789abcdef';
  let node: Server;
  let rpcUrl: string;

  beforeAll(async () => {
    node = createServer((request, response) => {
      response.writeHead(403, { 'content-type': 'text/plain' });
      response.end(`no access for ${rpcUrl} (${request.url ?? ''})`);
    });
    await new Promise<void>((listening) => node.listen(0, '127.0.0.1', listening));
    rpcUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}/v2/${PROVIDER_KEY}`;
  });

  afterAll(async () => {
    await new Promise<void>((closed) => node.close(() => closed()));
  });

  it('never quotes the RPC URL in what it tells a caller', async () => {
    const tatum = createTatumApi({
      apiKey: stack.tatumApiKey,
      apiUrl: stack.tatumApiUrl,
      rpcUrl,
      mainnet: false,
    });
    const failed: unknown = await tatum.nativeBalance(freshAddress()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ name: 'TatumError' });
    const { detail, message } = failed as { detail: string; message: string };
    expect(detail).toContain('no access for');
    expect(`${detail} ${message}`).not.toContain(PROVIDER_KEY);

    const handler = createNativeBalanceHandler({
      supabase: service,
      tatum,
      apiKeys: [stack.anonKey],
      limit: { requests: 1_000, windowSeconds: 60 },
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answer = await handler(
        new Request(`${stack.url}/functions/v1/native-balance`, {
          method: 'POST',
          headers: { apikey: stack.anonKey, 'x-forwarded-for': '10.255.255.1' },
          body: JSON.stringify({ address: freshAddress() }),
        }),
      );
      expect(answer.status).toBe(502);
      const text = await answer.text();
      expect(JSON.parse(text)).toMatchObject({ code: 'provider_unavailable' });
      expect(text).not.toContain(PROVIDER_KEY);
      expect(text).not.toContain('no access');
      expect(JSON.stringify(logged.mock.calls)).not.toContain(PROVIDER_KEY);
    } finally {
      logged.mockRestore();
    }
  });
});

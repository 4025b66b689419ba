import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import { createTatumService, TatumServiceError } from '../../src/services/tatum/index.ts';
import { anonClient, serviceClient, signedInUser, type Client, type TestUser } from '../support/clients.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { setWalletAsServer } from '../support/wallet-proof.ts';

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

/** Every subscription the Tatum account holds, as the key's owner sees them. */
async function accountSubscriptions(): Promise<{ id: string; address: string }[]> {
  const tatum = await localTatum(stack.tatumApiUrl, chain.rpcUrl, stack.tatumApiKey);
  try {
    const ids: { id: string; address: string }[] = [];
    for (let page = 0; ; page++) {
      const answer = await tatum.notification.getAll({ pageSize: 50, offset: page });
      const rows = answer.data ?? [];
      ids.push(...rows.map((row) => ({ id: row.id, address: row.address ?? '' })));
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
  let dataDir: string;
  let gateway: Gateway;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ddex-balance-limit-'));
    gateway = await startGateway({
      port: 0,
      dataDir,
      quietEmail: true,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      balanceRateLimit: `${LIMIT}/3600`,
      functionLog: () => {},
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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

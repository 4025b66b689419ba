import { createClient } from '@supabase/supabase-js';
import { parseUnits, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { createTatumService, TatumServiceError } from '../../src/services/tatum/index.ts';
import type { Gateway } from '../../stack/gateway/index.ts';
import { walletEventsUrl } from '../../supabase/functions/watch-wallets/handler.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { sendDdex } from '../support/stack/chain.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/stack/users.ts';
import { startTatumProxy, type TatumProxy } from '../support/tatum-proxy.ts';
import { freshWallet, linkWithProof, PORTAL_ORIGIN, setWalletAsServer } from '../support/stack/wallets.ts';

// The server watches every proven wallet: a proof (link-wallet, or a Sign in with Ethereum)
// queues the wallet, the stack's gateway calls watch-wallets as a hosted Database Webhook would,
// and the function subscribes the wallet at the Tatum emulator to process-payments under a URL of
// its own; an unlink ends the subscription. The demo's hooks stay the user's own. Checked at the
// emulator through its GET subscription API, and end to end with DDEX transfers.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const WALLET_EVENTS = walletEventsUrl(stack.url);
const PROCESS_PAYMENTS = `${stack.url}/functions/v1/process-payments`;
const WAIT = { timeout: 10_000, interval: 20 };

type TatumAccount = { tatumApiUrl: string; tatumApiKey: string };
type Subscription = { id: string; type: string; attr: { chain: string; address: string; url: string } };
type DrainAnswer = { reconciled: string[]; failed: string[] };

/** The Tatum account's subscriptions of `address`, as the emulator's GET subscription lists them. */
async function subscriptionsOf(address: string, account: TatumAccount = stack): Promise<Subscription[]> {
  const response = await fetch(`${account.tatumApiUrl}subscription?pageSize=50&address=${address}`, {
    headers: { 'x-api-key': account.tatumApiKey },
  });
  if (response.status !== 200) throw new Error(`listing ${address}'s subscriptions: ${response.status}`);
  return (await response.json()) as Subscription[];
}

const serverSubscriptionsOf = async (address: string, url = WALLET_EVENTS, account: TatumAccount = stack) =>
  (await subscriptionsOf(address, account)).filter((subscription) => subscription.attr.url === url);

/** The server's one subscription of `address`, once it is there. */
function watchedAt(
  address: string,
  url = WALLET_EVENTS,
  account: TatumAccount = stack,
  timeout = WAIT.timeout,
) {
  return vi.waitFor(
    async () => {
      const found = await serverSubscriptionsOf(address, url, account);
      const [only] = found;
      if (found.length !== 1 || !only) throw new Error(`${address} has ${found.length} server subscriptions`);
      return only;
    },
    { ...WAIT, timeout },
  );
}

function unwatchedAt(address: string) {
  return vi.waitFor(async () => {
    if ((await serverSubscriptionsOf(address)).length > 0) throw new Error(`${address} is still watched`);
  }, WAIT);
}

/** The server's record of its watch of `address`, read as the service role (no user may). */
async function watchOf(address: string, client: Client = service) {
  // ilike, not eq: the local REST layer's eq finds no row by a 0x… value.
  const { data, error } = await client.from('wallet_watches').select('*').ilike('address', address);
  if (error) throw new Error(`reading the watch of ${address} failed: ${error.message}`);
  return data[0] ?? null;
}

async function jobsOf(address: string, client: Client = service) {
  const { data, error } = await client.from('wallet_watch_jobs').select('*').ilike('address', address);
  if (error) throw new Error(`reading the jobs of ${address} failed: ${error.message}`);
  return data;
}

/** A drain as the hosted webhook (or its scheduled retry) calls it: POST with a key as bearer. */
const drain = (key: string | null, method = 'POST') =>
  fetch(`${stack.url}/functions/v1/watch-wallets`, {
    method,
    headers: {
      apikey: stack.anonKey,
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: method === 'POST' ? '{}' : undefined,
  });

/** An EIP-1193 wallet holding one key, on the stack's chain, as supabase-js asks wallets. */
function walletOf(account: PrivateKeyAccount) {
  return {
    request: async ({ method, params }: { method: string; params?: unknown }) => {
      if (method === 'eth_requestAccounts') return [account.address];
      if (method === 'eth_chainId') return `0x${chain.chainId.toString(16)}`;
      if (method === 'personal_sign') {
        const [data] = params as [Hex, string];
        return account.signMessage({ message: { raw: data } });
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

describe('the server watches each proven wallet', () => {
  it('subscribes a wallet proven with link-wallet, to process-payments under a URL of its own, and records it', async () => {
    const user = await signedInUser(stack, 'watch-link');
    const wallet = freshWallet();
    expect((await linkWithProof(chain, user.client, wallet)).status).toBe(200);

    const subscription = await watchedAt(wallet.address);
    expect(subscription).toMatchObject({ type: 'ADDRESS_EVENT', attr: { chain: 'ETH', url: WALLET_EVENTS } });
    expect(subscription.attr.address.toLowerCase()).toBe(wallet.address.toLowerCase());
    await vi.waitFor(async () => {
      expect(await watchOf(wallet.address)).toMatchObject({
        address: wallet.address.toLowerCase(),
        user_id: user.id,
        url: WALLET_EVENTS,
        subscription_id: subscription.id,
        state: 'active',
      });
      expect(await jobsOf(wallet.address)).toEqual([]);
    }, WAIT);
  });

  it('ends the subscription when the owner unlinks the wallet, and moves it when they link another', async () => {
    const user = await signedInUser(stack, 'watch-unlink');
    const [first, second] = [freshWallet(), freshWallet()];
    expect((await linkWithProof(chain, user.client, first)).status).toBe(200);
    await watchedAt(first.address);

    expect((await linkWithProof(chain, user.client, second)).status).toBe(200);
    await watchedAt(second.address);
    await unwatchedAt(first.address);

    const unlinked = await user.client
      .from('profiles')
      .upsert({ id: user.id, wallet_address: null }, { onConflict: 'id' });
    expect(unlinked.error).toBeNull();
    await unwatchedAt(second.address);
    await vi.waitFor(async () => {
      expect(await watchOf(first.address)).toBeNull();
      expect(await watchOf(second.address)).toBeNull();
    }, WAIT);
  });

  it('subscribes a wallet that signed in with Ethereum', async () => {
    const account = freshWallet();
    const supabase = createClient<Database>(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const signedIn = await supabase.auth.signInWithWeb3({
      chain: 'ethereum',
      wallet: walletOf(account) as never,
      statement: 'Sign in to DDEX',
      options: { url: `${PORTAL_ORIGIN}/` },
    });
    expect(signedIn.error).toBeNull();

    const subscription = await watchedAt(account.address);
    await vi.waitFor(async () => {
      expect(await watchOf(account.address)).toMatchObject({
        user_id: signedIn.data.user?.id,
        subscription_id: subscription.id,
        state: 'active',
      });
    }, WAIT);
  });

  it('keeps it out of the demo: List Hooks does not show it and Delete First Hook cannot delete it', async () => {
    const user = await signedInUser(stack, 'watch-demo');
    const wallet = freshWallet().address;
    await setWalletAsServer(service, user.id, wallet, true);
    const server = await watchedAt(wallet);
    const hooks = createTatumService({ client: () => Promise.resolve(user.client) });

    expect(await hooks.listWebhooks()).toEqual([]);
    const demo = await hooks.createAddressWebhook({ address: wallet });
    expect(demo).toMatchObject({ url: PROCESS_PAYMENTS });
    expect((await hooks.listWebhooks()).map((hook) => hook.id)).toEqual([demo.id]);

    const refused: unknown = await hooks.deleteWebhook(server.id).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TatumServiceError);
    expect(refused).toMatchObject({ operation: 'deleteWebhook', code: 'not_found' });
    await hooks.deleteWebhook(demo.id);
    expect(await hooks.listWebhooks()).toEqual([]);
    expect((await subscriptionsOf(wallet)).map((subscription) => subscription.id)).toEqual([server.id]);
  });
});

describe('watch-wallets, the drain', () => {
  it('drains for the service role only: no key, the anon key and a user’s session are refused', async () => {
    const user = await signedInUser(stack, 'watch-caller');
    for (const key of [null, stack.anonKey, user.accessToken, `${stack.serviceRoleKey}x`]) {
      const refused = await drain(key);
      expect(refused.status, `a drain with ${key === null ? 'no key' : 'another key'}`).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'unauthorized' });
    }
    const read = await drain(stack.serviceRoleKey, 'GET');
    expect(read.status).toBe(405);
    await read.body?.cancel();
    const drained = await drain(stack.serviceRoleKey);
    expect(drained.status).toBe(200);
    expect(await drained.json()).toEqual({ reconciled: expect.any(Array), failed: [] });
  });

  it('subscribes a wallet once when drains run at once', async () => {
    const user = await signedInUser(stack, 'watch-race');
    const wallet = freshWallet().address;
    const address = wallet.toLowerCase();
    await setWalletAsServer(service, user.id, wallet, true);
    // The stack's own drain starts on the same change: four at once.
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await drain(stack.serviceRoleKey);
        expect(response.status).toBe(200);
        return (await response.json()) as DrainAnswer;
      }),
    );

    const subscription = await watchedAt(wallet);
    expect(answers.filter((answer) => answer.reconciled.includes(address)).length).toBeLessThanOrEqual(1);
    expect(answers.flatMap((answer) => answer.failed)).not.toContain(address);
    await vi.waitFor(async () => {
      expect(await watchOf(wallet)).toMatchObject({ subscription_id: subscription.id, state: 'active' });
      expect(await jobsOf(wallet)).toEqual([]);
    }, WAIT);
  });
});

describe('a proven wallet’s transfers', () => {
  const sender = testAccount('watchWalletsSender');

  function pay(to: Address, amount: string): Promise<Hex> {
    return sendDdex(chain, sender, { address: to }, parseUnits(amount, 18));
  }

  /** What the user sees of transaction `hash` in their history. */
  async function historyOf(user: TestUser, hash: Hex) {
    const { data, error } = await user.client.from('transactions').select('*').eq('user_id', user.id);
    if (error) throw new Error(`reading the history failed: ${error.message}`);
    return data.filter((row) => row.tx_hash === hash);
  }

  const recorded = (user: TestUser, hash: Hex) =>
    vi.waitFor(async () => {
      const rows = await historyOf(user, hash);
      if (rows.length === 0) throw new Error(`${hash} is not in the history yet`);
      return rows;
    }, WAIT);

  async function notificationCount(user: TestUser): Promise<number> {
    const { data, error } = await user.client.from('user_notifications').select('id').eq('user_id', user.id);
    if (error) throw new Error(`reading the notifications failed: ${error.message}`);
    return data.length;
  }

  /**
   * Pays the wallet `amount` and waits for its row, then pays a marker and waits for that: the
   * emulator delivers in block order, so whatever the first transfer owed (a second delivery
   * included) has arrived by then.
   */
  async function payAndSettle(user: TestUser, wallet: Address, amount: string): Promise<Hex> {
    const hash = await pay(wallet, amount);
    await recorded(user, hash);
    await recorded(user, await pay(wallet, '0.001'));
    return hash;
  }

  it('arrive in the history of a freshly proven wallet with no demo hook, once', async () => {
    const user = await signedInUser(stack, 'watch-paid');
    const wallet = freshWallet();
    expect((await linkWithProof(chain, user.client, wallet)).status).toBe(200);
    await watchedAt(wallet.address);

    const hash = await payAndSettle(user, wallet.address, '3.5');
    expect(await historyOf(user, hash)).toEqual([
      expect.objectContaining({ type: 'token_received', amount: '3.5', token_symbol: 'DDEX' }),
    ]);
    // One for the payment, one for the marker.
    expect(await notificationCount(user)).toBe(2);
    const demoHooks = await user.client.from('tatum_subscriptions').select('id');
    expect(demoHooks.data).toEqual([]);
  });

  it('arrive once when a demo hook of the wallet delivers them as well', async () => {
    const user = await signedInUser(stack, 'watch-twice');
    const wallet = freshWallet();
    expect((await linkWithProof(chain, user.client, wallet)).status).toBe(200);
    await watchedAt(wallet.address);
    await createTatumService({ client: () => Promise.resolve(user.client) }).createAddressWebhook({
      address: wallet.address,
    });
    // Every transfer of the wallet is now delivered to both.
    expect(
      (await subscriptionsOf(wallet.address)).map((subscription) => subscription.attr.url).sort(),
    ).toEqual([PROCESS_PAYMENTS, WALLET_EVENTS].sort());

    const hash = await payAndSettle(user, wallet.address, '1.25');
    expect(await historyOf(user, hash)).toEqual([
      expect.objectContaining({ type: 'token_received', amount: '1.25', token_symbol: 'DDEX' }),
    ]);
    expect(await notificationCount(user)).toBe(2);
  });
});

describe('when Tatum refuses or cannot be reached', () => {
  // A stack of its own, whose functions reach Tatum through a proxy the test turns off and on; its
  // functions run in the gateway's process (`--functions node`), the other runtime.
  let proxy: TatumProxy;
  let gateway: Gateway;

  beforeAll(async () => {
    proxy = await startTatumProxy();
    proxy.mode = 'refusing';
    gateway = await startOwnGateway('watch-wallets', {
      tokenAddress: chain.tokenAddress,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      functions: 'node',
      functionsTatumUrl: proxy.url,
    });
    proxy.forwardTo(gateway.tatumApiUrl ?? '');
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
  });

  it('stays idle when nothing is queued: a claim that finds nothing does not wake the webhook again', async () => {
    // Notifications arrive in commit order, so the marker, sent after the claim, is heard after
    // anything the claim woke. A wake per claim made the gateway drain in a loop, a core's worth.
    const heard: string[] = [];
    const unlisten = await gateway.pg.listen('wallet_watch_jobs', (payload) => heard.push(payload));
    try {
      await gateway.pg.query('select * from public.claim_wallet_watches($1, 10, 60)', [
        walletEventsUrl(gateway.url),
      ]);
      await gateway.pg.query(`select pg_notify('wallet_watch_jobs', 'marker')`);
      await vi.waitFor(() => expect(heard).toContain('marker'), WAIT);
      expect(heard).toEqual(['marker']);
    } finally {
      await unlisten();
    }
  });

  it('keeps the job, with the reason, and retries it until Tatum takes the subscription', async () => {
    const own = serviceClient(gateway);
    const emulator = { tatumApiUrl: gateway.tatumApiUrl ?? '', tatumApiKey: gateway.tatumApiKey };
    const url = walletEventsUrl(gateway.url);
    const user = await signedInUser(gateway, 'watch-retry');
    const wallet = freshWallet().address;
    await setWalletAsServer(own, user.id, wallet, true);

    const failure = (said: RegExp, attemptsBefore: number) =>
      vi.waitFor(
        async () => {
          const [job] = await jobsOf(wallet, own);
          if (!job || job.attempts <= attemptsBefore || !said.test(job.last_error ?? '')) {
            throw new Error(`no failure matching ${String(said)} yet: ${JSON.stringify(job ?? null)}`);
          }
          return job;
        },
        { timeout: 15_000, interval: 25 },
      );
    const refused = await failure(/Tatum refused \(subscription\.plan\.limit\)/, 0);
    expect(await serverSubscriptionsOf(wallet, url, emulator)).toEqual([]);

    proxy.mode = 'down';
    await failure(/Tatum unreachable/, refused.attempts);
    expect(await serverSubscriptionsOf(wallet, url, emulator)).toEqual([]);

    proxy.mode = 'up';
    const subscription = await watchedAt(wallet, url, emulator, 20_000);
    await vi.waitFor(async () => {
      expect(await jobsOf(wallet, own)).toEqual([]);
      expect(await watchOf(wallet, own)).toMatchObject({ subscription_id: subscription.id, state: 'active' });
    }, WAIT);
  }, 60_000);
});

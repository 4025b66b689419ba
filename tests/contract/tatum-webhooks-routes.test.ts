import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTatumApi, type TatumApi } from '../../supabase/functions/_shared/tatum.ts';
import { createTatumWebhooksHandler } from '../../supabase/functions/tatum-webhooks/handler.ts';
import { serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';

// The Tatum key manages the whole account, the HMAC secret that signs every delivery among it
// (Tatum sets it with PUT /v3/subscription {hmacSecret} and drops it with DELETE), and
// tatum-webhooks is the one function a signed-in user can steer. It serves three routes and
// nothing else: whatever else a caller tries, with whatever body, is 404 or 405 and asks Tatum
// nothing. The routes themselves are driven in tatum-functions.test.ts.

const stack = inject('gateway');
const service = serviceClient(stack);
const CALLBACK = `${stack.url}/functions/v1/process-payments`;
const FUNCTION_URL = `${stack.url}/functions/v1/tatum-webhooks`;

/** What a caller might try to reach the account's secret with: method, path, body. */
const PROBES: [string, string, unknown][] = [
  ['PUT', '', { hmacSecret: 'chosen-by-the-caller' }],
  ['PATCH', '', { hmacSecret: 'chosen-by-the-caller' }],
  ['DELETE', '', undefined],
  ['GET', 'hmac', undefined],
  ['POST', 'hmac', { hmacSecret: 'chosen-by-the-caller' }],
  ['PUT', 'hmac', { hmacSecret: 'chosen-by-the-caller' }],
  ['DELETE', 'hmac', undefined],
  ['PUT', 'v3/subscription', { hmacSecret: 'chosen-by-the-caller' }],
  ['DELETE', 'v3/subscription/hmac', undefined],
  ['GET', 'v4/subscription', undefined],
  ['GET', 'account', undefined],
];

/** A Tatum account that records every call the function makes of it. */
function recordingTatum() {
  const calls: string[] = [];
  const tatum: TatumApi = {
    subscribe: (address, url) => {
      calls.push(`subscribe ${address} ${url}`);
      return Promise.resolve({ id: `sub-${randomUUID()}`, address, url, chain: 'ETH' });
    },
    unsubscribe: (id) => {
      calls.push(`unsubscribe ${id}`);
      return Promise.resolve(true);
    },
    nativeBalance: (address) => {
      calls.push(`nativeBalance ${address}`);
      return Promise.resolve({ balance: '0', asset: 'ETH' });
    },
  };
  return { calls, tatum };
}

describe('tatum-webhooks reaches nothing of the account but the caller’s own subscriptions', () => {
  let user: TestUser & { wallet: string };

  beforeAll(async () => {
    const signedIn = await signedInUser(stack, 'hooks-routes');
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    await setWalletAsServer(service, signedIn.id, wallet, true);
    user = { ...signedIn, wallet };
  });

  const request = (method: string, path: string, body: unknown) =>
    new Request(path === '' ? FUNCTION_URL : `${FUNCTION_URL}/${path}`, {
      method,
      headers: {
        apikey: stack.anonKey,
        authorization: `Bearer ${user.accessToken}`,
        'content-type': 'application/json',
      },
      body: body === undefined ? null : JSON.stringify(body),
    });

  it('serves no route that sets or reads the HMAC secret: every other path and method is 404 or 405, asking Tatum nothing', async () => {
    const { calls, tatum } = recordingTatum();
    const handler = createTatumWebhooksHandler({ supabase: service, tatum, callbackUrl: CALLBACK });
    for (const [method, path, body] of PROBES) {
      const answer = await handler(request(method, path, body));
      expect([404, 405], `${method} /tatum-webhooks/${path}`).toContain(answer.status);
    }
    expect(calls).toEqual([]);

    // Create Hook on the same handler asks Tatum one thing: this wallet, to the project's URL.
    // A secret sent along goes nowhere.
    const created = await handler(
      request('POST', '', { address: user.wallet, hmacSecret: 'chosen-by-the-caller' }),
    );
    expect(created.status).toBe(200);
    expect(calls).toEqual([`subscribe ${user.wallet} ${CALLBACK}`]);
    const { webhook } = (await created.json()) as { webhook: { id: string } };
    expect((await handler(request('DELETE', webhook.id, undefined))).status).toBe(200);
    expect(calls).toEqual([`subscribe ${user.wallet} ${CALLBACK}`, `unsubscribe ${webhook.id}`]);
  });

  it('answers the same as deployed: 404 or 405 behind the gateway, and List Hooks still answers', async () => {
    for (const [method, path, body] of PROBES) {
      const answer = await fetch(request(method, path, body));
      expect([404, 405], `${method} /tatum-webhooks/${path}`).toContain(answer.status);
    }
    const listed = await fetch(request('GET', '', undefined));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ webhooks: [] });
  });

  it('holds the account through four operations only: subscribe, unsubscribe, list, balance', () => {
    const api = createTatumApi({
      apiKey: stack.tatumApiKey,
      apiUrl: stack.tatumApiUrl,
      rpcUrl: inject('chain').rpcUrl,
      mainnet: false,
    });
    expect(Object.keys(api).sort()).toEqual(['nativeBalance', 'subscribe', 'subscriptionsOf', 'unsubscribe']);
  });
});

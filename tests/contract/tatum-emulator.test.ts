import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ethereum } from '@tatumio/tatum';
import { erc20Abi, formatEther, parseEther, parseUnits, type Hex } from 'viem';
import { getBalance, sendTransaction, waitForTransactionReceipt, writeContract } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import { DOC_FEE, DOC_KEYS, SDK_DELIVERY_EXTRAS } from '../support/tatum-documented.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { readerOf, walletOf } from '../support/stack/chain.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { PORTAL_ORIGIN } from '../support/stack/wallets.ts';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';
import { chunked } from '../support/streams.ts';

// The local Tatum emulator, driven by the unmodified @tatumio/tatum SDK: native
// balances from the chain, subscriptions kept in the database, and signed
// address-event webhooks for every transfer touching a watched address,
// retried until the receiver takes them.
const stack = inject('gateway');
const chain = inject('chain');
const sender = testAccount('emulatorSender');
const recipient = testAccount('emulatorRecipient');
const reader = testAccount('balanceReader');
const publicClient = readerOf(chain);
const wallet = walletOf(chain, sender);

let tatum: Ethereum;
let receiver: WebhookReceiver;

beforeAll(async () => {
  tatum = await localTatum(stack.tatumApiUrl, chain.rpcUrl, stack.tatumApiKey);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await tatum.destroy();
  await receiver.close();
});

async function sendEth(to: Hex, ether: string): Promise<Hex> {
  const hash = await sendTransaction(wallet, { to, value: parseEther(ether), chain: null });
  await waitForTransactionReceipt(publicClient, { hash });
  return hash;
}

async function sendDdex(to: Hex, amount: string): Promise<Hex> {
  const hash = await writeContract(wallet, {
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 18)],
    chain: null,
  });
  await waitForTransactionReceipt(publicClient, { hash });
  return hash;
}

const payloadsOf = (webhooks: ReceivedWebhook[], txId: Hex) =>
  webhooks.map((w) => JSON.parse(w.body) as Record<string, unknown>).filter((p) => p['txId'] === txId);

/** Where this file's refused requests would subscribe: port 9 of 127.0.0.1, where nothing listens. */
const NOWHERE = 'http://127.0.0.1:9/';

/**
 * The ids of this file's subscriptions to NOWHERE, read page by page: other files' subscriptions
 * (their demo hooks, the server's watches of their proven wallets) come and go meanwhile.
 */
async function nowhereHooks(): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const rows = (await tatum.notification.getAll({ pageSize: 50, offset: page })).data ?? [];
    ids.push(...rows.filter((row) => row.url.startsWith(NOWHERE)).map((row) => row.id));
    if (rows.length < 50) return ids;
  }
}

async function subscribe(address: string, url: string): Promise<string> {
  const result = await tatum.notification.subscribe.addressEvent({ address, url });
  if (result.status !== 'SUCCESS' || !result.data)
    throw new Error(`subscribe failed: ${JSON.stringify(result)}`);
  return result.data.id;
}

describe('Tatum emulator: the SDK’s calls', () => {
  it('gives the native balance the chain has, in ETH', async () => {
    const result = await tatum.address.getBalance({ addresses: [reader.address], tokenTypes: ['native'] });
    const onChain = await getBalance(publicClient, { address: reader.address, blockTag: 'pending' });
    expect(result.status).toBe('SUCCESS');
    expect(result.data?.[0]).toMatchObject({ asset: 'ETH', balance: formatEther(onChain) });
  });

  it('subscribes, lists and unsubscribes; an unknown id is an ERROR value', async () => {
    const id = await subscribe(reader.address, receiver.url);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const listed = await tatum.notification.getAll({ pageSize: 50, address: reader.address });
    expect(listed.status).toBe('SUCCESS');
    expect(listed.data).toContainEqual(
      expect.objectContaining({ id, address: reader.address, url: receiver.url, type: 'ADDRESS_EVENT' }),
    );

    expect((await tatum.notification.unsubscribe(id)).status).toBe('SUCCESS');
    expect(
      (await tatum.notification.getAll({ pageSize: 50, address: reader.address })).data?.map((s) => s.id),
    ).not.toContain(id);
    const again = await tatum.notification.unsubscribe(id);
    expect(again).toMatchObject({
      status: 'ERROR',
      data: null,
      error: { message: ['Subscription not found'], code: 'subscription.not.found' },
    });
  });

  it('refuses a bad subscription with Tatum’s validation error', async () => {
    const result = await tatum.notification.subscribe.addressEvent({
      address: '0x1234',
      url: 'ftp://nowhere',
    });
    expect(result.status).toBe('ERROR');
    expect(result.error?.code).toBe('validation.failed');
    expect(result.error?.message).toEqual([
      'address must be a valid ETH address',
      'url must be an http(s) URL',
    ]);
  });

  it('refuses every request without the account’s key, or with another, and changes nothing', async () => {
    const kept = await subscribe(reader.address, `${NOWHERE}keyless`);
    const before = await nowhereHooks();
    const asks = [
      { method: 'GET', path: 'subscription?pageSize=10' },
      {
        method: 'POST',
        path: 'subscription',
        body: JSON.stringify({
          type: 'ADDRESS_EVENT',
          attr: { chain: 'ETH', address: recipient.address, url: 'http://127.0.0.1:9/hook' },
        }),
      },
      { method: 'DELETE', path: `subscription/${kept}` },
      { method: 'PUT', path: 'subscription', body: JSON.stringify({ hmacSecret: 'stolen' }) },
    ];
    for (const key of [null, 'not-the-key', `${stack.tatumApiKey}x`]) {
      for (const ask of asks) {
        const response = await fetch(`${stack.tatumApiUrl}${ask.path}`, {
          method: ask.method,
          headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
          body: ask.body,
        });
        expect(response.status, `${ask.method} ${ask.path} with ${key ?? 'no key'}`).toBe(401);
        expect(await response.json()).toMatchObject({ statusCode: 401, errorCode: 'unauthorized' });
      }
    }
    expect(await nowhereHooks()).toEqual(before);
    expect(before).toContain(kept);
    expect((await tatum.notification.unsubscribe(kept)).status).toBe('SUCCESS');
  });

  it('refuses a body past 64 KB with 413, declared or chunked, and subscribes nothing', async () => {
    const padded = JSON.stringify({
      type: 'ADDRESS_EVENT',
      attr: { chain: 'ETH', address: recipient.address, url: 'http://127.0.0.1:9/too-large' },
      padding: 'x'.repeat(70 * 1024),
    });
    const post = (body: BodyInit) =>
      fetch(`${stack.tatumApiUrl}subscription`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': stack.tatumApiKey },
        body,
        duplex: 'half',
      } as RequestInit);
    for (const body of [padded, chunked(padded)]) {
      const response = await post(body);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ statusCode: 413, errorCode: 'payload.too.large' });
    }
    const listed = await tatum.notification.getAll({ pageSize: 50 });
    expect(listed.data?.map((s) => s.url)).not.toContain('http://127.0.0.1:9/too-large');
  });
});

describe('Tatum emulator: browsers', () => {
  // PORTAL_ORIGIN is the test stack's site URL (the gateway's default): the one origin whose pages
  // may call. Any page a developer has open could otherwise send its requests to 127.0.0.1.
  const OTHER_ORIGIN = 'https://evil.example';
  const withKey = (origin: string | null, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: {
      'content-type': 'application/json',
      'x-api-key': stack.tatumApiKey,
      ...(origin === null ? {} : { origin }),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const ids = nowhereHooks;

  it('answers the app’s preflight for the SDK’s headers, for its origin only', async () => {
    const response = await fetch(`${stack.tatumApiUrl}subscription`, {
      method: 'OPTIONS',
      headers: {
        origin: PORTAL_ORIGIN,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers':
          'x-api-key,x-ttm-sdk-version,x-ttm-sdk-product,x-ttm-sdk-debug,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL_ORIGIN);
    expect(response.headers.get('vary')).toMatch(/origin/i);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
    for (const header of [
      'x-api-key',
      'x-ttm-sdk-version',
      'x-ttm-sdk-product',
      'x-ttm-sdk-debug',
      'content-type',
    ]) {
      expect(allowed).toContain(header);
    }

    const foreign = await fetch(`${stack.tatumApiUrl}subscription`, {
      method: 'OPTIONS',
      headers: { origin: OTHER_ORIGIN, 'access-control-request-method': 'DELETE' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('lets the app’s pages read its answers and no other page', async () => {
    const own = await fetch(`${stack.tatumApiUrl}subscription?pageSize=10`, withKey(PORTAL_ORIGIN));
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(PORTAL_ORIGIN);
    expect(own.headers.get('vary')).toMatch(/origin/i);

    // A cross-site read is answered, but without CORS headers the browser keeps it from the page.
    const foreign = await fetch(`${stack.tatumApiUrl}subscription?pageSize=10`, withKey(OTHER_ORIGIN));
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('vary')).toMatch(/origin/i);
    await foreign.body?.cancel();
  });

  it('refuses a subscribe or delete from another origin with 403 before acting, even with the key', async () => {
    const kept = await subscribe(reader.address, 'http://127.0.0.1:9/kept');
    const before = await ids();
    const body = JSON.stringify({
      type: 'ADDRESS_EVENT',
      attr: { chain: 'ETH', address: recipient.address, url: 'http://127.0.0.1:9/cross-site' },
    });
    const attempts: [string, RequestInit][] = [
      ['subscription', withKey(OTHER_ORIGIN, { method: 'POST', body })],
      // A form or a no-cors fetch sends a "simple" POST without asking first.
      [
        'subscription',
        withKey(OTHER_ORIGIN, { method: 'POST', body, headers: { 'content-type': 'text/plain' } }),
      ],
      [`subscription/${kept}`, withKey(OTHER_ORIGIN, { method: 'DELETE' })],
      [`subscription/${kept}`, withKey('null', { method: 'DELETE' })],
    ];
    for (const [path, init] of attempts) {
      const response = await fetch(`${stack.tatumApiUrl}${path}`, init);
      expect(response.status, `${init.method} ${path}`).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await response.json()).toMatchObject({ statusCode: 403, errorCode: 'origin.not.allowed' });
    }
    expect(await ids()).toEqual(before);

    // The app's own page, and a caller that sends no Origin (the SDK, the functions), still act.
    const deleted = await fetch(
      `${stack.tatumApiUrl}subscription/${kept}`,
      withKey(PORTAL_ORIGIN, { method: 'DELETE' }),
    );
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('access-control-allow-origin')).toBe(PORTAL_ORIGIN);
    expect(await ids()).not.toContain(kept);
    const again = await subscribe(reader.address, 'http://127.0.0.1:9/kept');
    expect((await tatum.notification.unsubscribe(again)).status).toBe('SUCCESS');
  });
});

describe('Tatum emulator: address-event webhooks', () => {
  it('posts the documented bodies, signed, for native and DDEX transfers touching watched addresses', async () => {
    const ids = [
      await subscribe(recipient.address, receiver.url),
      await subscribe(sender.address, receiver.url),
    ];
    const before = receiver.received.length;
    const nativeTx = await sendEth(recipient.address, '0.25');
    const tokenTx = await sendDdex(recipient.address, '3.5');
    // native in + out and the sender's fee; token in + out and the sender's fee.
    const delivered = (await receiver.waitForDelivered(before + 6)).slice(before);
    expect(delivered).toHaveLength(6);

    expect(payloadsOf(delivered, nativeTx)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          address: recipient.address.toLowerCase(),
          amount: '0.25',
          asset: 'ETH',
          type: 'native',
          counterAddress: sender.address.toLowerCase(),
          subscriptionType: 'ADDRESS_EVENT',
        }),
        expect.objectContaining({ address: sender.address.toLowerCase(), amount: '-0.25', type: 'native' }),
        expect.objectContaining({ address: sender.address.toLowerCase(), type: 'fee', asset: 'ETH' }),
      ]),
    );
    expect(payloadsOf(delivered, tokenTx)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          address: recipient.address.toLowerCase(),
          amount: '3.5',
          asset: chain.tokenAddress.toLowerCase(),
          type: 'fungible',
        }),
        expect.objectContaining({ address: sender.address.toLowerCase(), amount: '-3.5', type: 'fungible' }),
        expect.objectContaining({ address: sender.address.toLowerCase(), type: 'fee' }),
      ]),
    );
    // Tatum's v4 name of the network the account is on, as process-payments' TATUM_CHAIN names it,
    // the subscription that delivers it and the block's time, as the SDK's webhook record has them.
    const bodies = delivered.map((webhook) => JSON.parse(webhook.body) as Record<string, unknown>);
    expect(bodies).toEqual(
      bodies.map(() =>
        expect.objectContaining({
          chain: 'ethereum-sepolia',
          subscriptionId: expect.stringMatching(new RegExp(`^(${ids.join('|')})$`)),
          timestamp: expect.any(Number),
        }),
      ),
    );
    // Exactly the documented fields (tests/support/tatum-documented.ts): no log index, no extras;
    // a fee names no counter address.
    const extras = Object.keys(SDK_DELIVERY_EXTRAS);
    for (const body of bodies) {
      const documented = body['type'] === 'fee' ? Object.keys(DOC_FEE) : DOC_KEYS;
      expect(Object.keys(body).sort()).toEqual([...documented, ...extras].sort());
    }
    for (const webhook of delivered) {
      expect(webhook.headers['x-payload-hash']).toBe(await signPayload(stack.webhookSecret, webhook.body));
    }
    for (const id of ids) await tatum.notification.unsubscribe(id);
  });

  it('retries with growing back-off until the receiver takes the event', async () => {
    const id = await subscribe(recipient.address, receiver.url);
    const before = receiver.received.length;
    receiver.answerWith(500, 503);
    const startedAt = Date.now();
    const tx = await sendEth(recipient.address, '0.01');
    await receiver.waitForDelivered(receiver.received.filter((r) => r.status === 200).length + 1);
    const attempts = receiver.received.slice(before);
    expect(attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    // The same event each time, and back-off of about 1 s and then 2 s between attempts.
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(payloadsOf(attempts, tx)).toHaveLength(3);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_900);
    await tatum.notification.unsubscribe(id);
  }, 30_000);
});

describe('Tatum emulator: restarts', () => {
  it('keeps subscriptions, and delivers a transfer mined while it was down', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ddex-tatum-restart-'));
    const start = () =>
      startGateway({
        port: 0,
        dataDir,
        quietEmail: true,
        tokenAddress: chain.tokenAddress,
        rpcUrl: chain.rpcUrl,
      });
    const restartReceiver = await startWebhookReceiver();
    try {
      let gateway = await start();
      let own = await localTatum(gateway.tatumApiUrl ?? '', chain.rpcUrl, gateway.tatumApiKey);
      const subscribed = await own.notification.subscribe.addressEvent({
        address: recipient.address,
        url: restartReceiver.url,
      });
      await own.destroy();
      await gateway.close();

      const missed = await sendDdex(recipient.address, '1.25');

      gateway = await start();
      own = await localTatum(gateway.tatumApiUrl ?? '', chain.rpcUrl, gateway.tatumApiKey);
      const listed = await own.notification.getAll();
      expect(listed.data?.map((s) => s.id)).toEqual([subscribed.data?.id]);
      const delivered = await restartReceiver.waitForDelivered(1);
      expect(payloadsOf(delivered, missed)).toEqual([
        expect.objectContaining({
          address: recipient.address.toLowerCase(),
          amount: '1.25',
          type: 'fungible',
        }),
      ]);
      await own.destroy();
      await gateway.close();
    } finally {
      process.env['TATUM_URL'] = stack.tatumApiUrl;
      await restartReceiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('subscribes the market’s pair to market-bots on every start, at the gateway’s own address', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ddex-tatum-market-'));
    const pair = chain.uniswap.pair;
    const start = () =>
      startGateway({
        port: 0,
        dataDir,
        quietEmail: true,
        tokenAddress: chain.tokenAddress,
        rpcUrl: chain.rpcUrl,
        uniswapRouter: chain.uniswap.router,
        functions: 'node',
      });
    const ask = (gateway: Gateway, path: string, init: RequestInit = {}) =>
      fetch(`${gateway.tatumApiUrl ?? ''}${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', 'x-api-key': gateway.tatumApiKey },
      });
    const urlsWatchingPair = async (gateway: Gateway) => {
      const response = await ask(gateway, `subscription?pageSize=50&address=${pair}`);
      const rows = (await response.json()) as { type: string; attr: { address: string; url: string } }[];
      expect(rows.every((row) => row.type === 'ADDRESS_EVENT')).toBe(true);
      expect(rows.every((row) => row.attr.address.toLowerCase() === pair.toLowerCase())).toBe(true);
      return rows.map((row) => row.attr.url).sort();
    };
    const elsewhere = 'http://127.0.0.1:9/elsewhere';
    let gateway: Gateway | null = null;
    try {
      gateway = await start();
      expect(await urlsWatchingPair(gateway)).toEqual([`${gateway.url}/functions/v1/market-bots`]);
      // Another receiver of the pair's events is no concern of the gateway's.
      const added = await ask(gateway, 'subscription', {
        method: 'POST',
        body: JSON.stringify({
          type: 'ADDRESS_EVENT',
          attr: { chain: 'ETH', address: pair, url: elsewhere },
        }),
      });
      expect(added.status).toBe(200);
      await gateway.close();

      // Port 0 again: the gateway most likely listens elsewhere now, and the old URL hears nothing.
      gateway = await start();
      expect(await urlsWatchingPair(gateway)).toEqual(
        [elsewhere, `${gateway.url}/functions/v1/market-bots`].sort(),
      );
    } finally {
      await gateway?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ethereum } from '@tatumio/tatum';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatEther,
  http,
  parseEther,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getBalance, sendTransaction, waitForTransactionReceipt, writeContract } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway } from '../../stack/gateway/index.ts';
import { signPayload } from '../../supabase/functions/process-payments/signature.ts';
import { testAccount } from '../support/accounts.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';

// The local Tatum emulator, driven by the unmodified @tatumio/tatum SDK: native
// balances from the chain, subscriptions kept in the database, and signed
// address-event webhooks for every transfer touching a watched address,
// retried until the receiver takes them.
const stack = inject('gateway');
const chain = inject('chain');
const sender = testAccount('emulatorSender');
const recipient = testAccount('emulatorRecipient');
const reader = testAccount('balanceReader');
const publicClient = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
const wallet = createWalletClient({
  account: privateKeyToAccount(sender.privateKey),
  transport: http(chain.rpcUrl, { retryCount: 0 }),
});

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
    const listed = await tatum.notification.getAll();
    expect(listed.status).toBe('SUCCESS');
    expect(listed.data).toContainEqual(
      expect.objectContaining({ id, address: reader.address, url: receiver.url, type: 'ADDRESS_EVENT' }),
    );

    expect((await tatum.notification.unsubscribe(id)).status).toBe('SUCCESS');
    expect((await tatum.notification.getAll()).data?.map((s) => s.id)).not.toContain(id);
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
    const before = await tatum.notification.getAll({ pageSize: 50 });
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
      { method: 'DELETE', path: `subscription/${before.data?.[0]?.id ?? 'none'}` },
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
    const after = await tatum.notification.getAll({ pageSize: 50 });
    expect(after.data?.map((row) => row.id)).toEqual(before.data?.map((row) => row.id));
  });

  it('answers the browser’s CORS preflight for the SDK’s headers', async () => {
    const response = await fetch(`${stack.tatumApiUrl}subscription`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'x-api-key,x-ttm-sdk-version,x-ttm-sdk-product,x-ttm-sdk-debug,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
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
  });
});

describe('Tatum emulator: address-event webhooks', () => {
  it('posts signed legacy payloads for native and DDEX transfers touching watched addresses', async () => {
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
          type: 'token',
        }),
        expect.objectContaining({ address: sender.address.toLowerCase(), amount: '-3.5', type: 'token' }),
        expect.objectContaining({ address: sender.address.toLowerCase(), type: 'fee' }),
      ]),
    );
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
        expect.objectContaining({ address: recipient.address.toLowerCase(), amount: '1.25', type: 'token' }),
      ]);
      await own.destroy();
      await gateway.close();
    } finally {
      process.env['TATUM_URL'] = stack.tatumApiUrl;
      await restartReceiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

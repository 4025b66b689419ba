import { createPublicClient, formatEther, http } from 'viem';
import { getBalance } from 'viem/actions';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dataProviderCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import { createTatumService, TatumServiceError } from '../../src/services/tatum/index.ts';
import { testAccount } from '../support/accounts.ts';

// The portal's Tatum adapter against the local stack, configured as `npm start`
// configures the app: REST base = the emulator, RPC node = the chain.
const stack = inject('gateway');
const chain = inject('chain');
const reader = testAccount('balanceReader');
const tatum = createTatumService({ apiKey: null, apiUrl: stack.tatumApiUrl, rpcUrl: chain.rpcUrl });
const hookUrl = `${stack.url}/functions/v1/process-payments`;

afterAll(() => tatum.destroy());

describe('Tatum service on the local stack', () => {
  it('reads the native balance the chain has', async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const onChain = await getBalance(client, { address: reader.address, blockTag: 'pending' });
    expect(await tatum.getNativeBalance(reader.address)).toEqual({
      balance: formatEther(onChain),
      asset: 'ETH',
    });
  });

  it('creates, lists and deletes an address webhook', async () => {
    const created = await tatum.createAddressWebhook({ address: reader.address, url: hookUrl });
    expect(created).toMatchObject({ address: reader.address, url: hookUrl, chain: 'ETH' });
    expect(await tatum.listWebhooks()).toContainEqual(expect.objectContaining({ id: created.id }));
    await tatum.deleteWebhook(created.id);
    expect((await tatum.listWebhooks()).map((w) => w.id)).not.toContain(created.id);

    const again = await tatum.deleteWebhook(created.id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(TatumServiceError);
    expect(again).toMatchObject({ operation: 'deleteWebhook', detail: 'Subscription not found' });
    expect(describeError(again)).toBe(dataProviderCopy.deleteWebhookFailed);
  });

  it('reports a refused subscription with the spec’s message and the emulator’s reason', async () => {
    const refused = await tatum
      .createAddressWebhook({ address: reader.address, url: 'not a url' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      operation: 'createAddressWebhook',
      detail: expect.stringContaining('url must be an http(s) URL'),
    });
    expect(describeError(refused)).toBe(dataProviderCopy.createWebhookFailed);
  });
});

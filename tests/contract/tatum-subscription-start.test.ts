import { PGlite } from '@electric-sql/pglite';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startTatumEmulator, type TatumEmulator } from '../../stack/gateway/tatum/index.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { sendEth } from '../support/stack/chain.ts';
import { freshWallet } from '../support/stack/wallets.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Hosted Tatum tells a subscription of what happens after it is made, not of what the chain held
// before: its watcher is current. The local emulator reads the chain block by block and may be
// behind (a burst of blocks, a busy machine), so a subscription made while it is behind must still
// not hear of the blocks mined before it. Here the emulator of the file's own reads the chain only
// every 3 s, so the transfer mined before the subscription is still unread when it is made.

const chain = inject('chain');
const payer = testAccount('subscriptionStartPayer');
let receiver: WebhookReceiver;
let emulator: TatumEmulator;
let pg: PGlite;

beforeAll(async () => {
  pg = await PGlite.create();
  receiver = await startWebhookReceiver();
  emulator = await startTatumEmulator({
    pg,
    rpcUrl: chain.rpcUrl,
    webhookSecret: 'subscription-start-secret',
    apiKey: 'subscription-start-key',
    siteUrl: 'http://127.0.0.1:5173',
    pollMs: 3_000,
  });
});

afterAll(async () => {
  await emulator?.close();
  await receiver?.close();
  await pg?.close();
});

describe('a subscription made while the emulator is behind the chain', () => {
  it('delivers what is mined after it, and nothing mined before it', async () => {
    const watched = freshWallet().address;
    const before = await sendEth(chain, payer, { address: watched }, parseEther('0.01'));
    await emulator.ensureSubscription({
      type: 'ADDRESS_EVENT',
      chain: 'ETH',
      address: watched,
      url: receiver.url,
    });
    const after = await sendEth(chain, payer, { address: watched }, parseEther('0.02'));

    const txIds = () =>
      receiver.received.map((webhook) => (JSON.parse(webhook.body) as { txId: string }).txId);
    // The blocks of both are read in one go, so once the later one is here the earlier one would be too.
    await vi.waitFor(() => expect(txIds()).toContain(after.transactionHash), {
      timeout: 20_000,
      interval: 100,
    });
    expect(txIds()).not.toContain(before.transactionHash);
  }, 30_000);
});

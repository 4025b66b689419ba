import type { Ethereum } from '@tatumio/tatum';
import type { RealtimePostgresInsertPayload } from '@supabase/supabase-js';
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { waitForTransactionReceipt, writeContract } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';
import { subscribed } from '../support/realtime.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { linkWithProof } from '../support/stack/wallets.ts';

// The loop the portal demonstrates, all real: a user proves their wallet
// (link-wallet), which is then watched through the Tatum SDK; a DDEX transfer to it is mined; the emulator
// posts the signed webhook to process-payments, which records one history row
// and one notification, and realtime pushes the notification to the user.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

const stack = inject('gateway');
const chain = inject('chain');
const sender = testAccount('paymentLoopSender');
const watched = testAccount('paymentLoopRecipient');
const PROCESS_PAYMENTS = `${stack.url}/functions/v1/process-payments`;

const publicClient = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
const wallet = createWalletClient({
  account: privateKeyToAccount(sender.privateKey),
  transport: http(chain.rpcUrl, { retryCount: 0 }),
});

let tatum: Ethereum;
let user: TestUser;
let subscriptionId: string;
const live: NotificationRow[] = [];

beforeAll(async () => {
  tatum = await localTatum(stack.tatumApiUrl, chain.rpcUrl, stack.tatumApiKey);
  user = await signedInUser(stack, 'loop');
  const linked = await linkWithProof(chain, user.client, privateKeyToAccount(watched.privateKey));
  if (linked.status !== 200) throw new Error(`could not link the wallet: ${JSON.stringify(linked.body)}`);
  const created = await tatum.notification.subscribe.addressEvent({
    address: watched.address,
    url: PROCESS_PAYMENTS,
  });
  if (!created.data) throw new Error(`subscribe failed: ${JSON.stringify(created.error)}`);
  subscriptionId = created.data.id;
  await subscribed(
    user.client
      .channel(`notifications-${user.id}`)
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${user.id}` },
        (payload: RealtimePostgresInsertPayload<NotificationRow>) => live.push(payload.new),
      ),
  );
});

afterAll(async () => {
  await tatum.notification.unsubscribe(subscriptionId);
  await tatum.destroy();
  await user.client.removeAllChannels();
});

async function sendDdex(amount: string): Promise<Hex> {
  const hash = await writeContract(wallet, {
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [watched.address, parseUnits(amount, 18)],
    chain: null,
  });
  await waitForTransactionReceipt(publicClient, { hash });
  return hash;
}

/** The live notification about transaction `hash`, once realtime has pushed it. */
function liveNoticeOf(hash: Hex): Promise<NotificationRow> {
  return vi.waitFor(
    () => {
      const notice = live.find((n) => n.message.includes(hash.slice(0, 10)));
      if (!notice) throw new Error(`no live notification about ${hash} arrived`);
      return notice;
    },
    { timeout: 10_000, interval: 10 },
  );
}

/**
 * A later transfer to the watched wallet, waited for until its notification is live. The emulator
 * reads blocks and delivers in order, so whatever an earlier block owed (a duplicate included)
 * has been delivered by then: a positive marker instead of a pause.
 */
async function deliveredThroughNextTransfer(): Promise<void> {
  const marker = await sendDdex('0.001');
  await liveNoticeOf(marker);
}

const history = () => user.client.from('transactions').select('*').eq('user_id', user.id);
const notices = () => user.client.from('user_notifications').select('*').eq('user_id', user.id);

describe('transfer to a watched wallet', () => {
  it('ends as exactly one history row and one live notification', async () => {
    const tx = await sendDdex('2.5');
    const notice = await liveNoticeOf(tx);
    expect(notice).toMatchObject({ title: 'DDEX Received', is_read: false });
    expect(notice.message).toContain('2.5 DDEX');

    await deliveredThroughNextTransfer();
    expect(live.filter((n) => n.message.includes(tx.slice(0, 10)))).toHaveLength(1);
    const rows = ((await history()).data ?? []).filter((row) => row.tx_hash === tx);
    expect(rows).toEqual([
      expect.objectContaining({ type: 'token_received', amount: '2.5', token_symbol: 'DDEX', tx_hash: tx }),
    ]);
  });

  it('records a redelivered webhook once and refuses a forged one', async () => {
    const tx = await sendDdex('1');
    await liveNoticeOf(tx);
    const receipt = await publicClient.getTransactionReceipt({ hash: tx });
    // The delivery the emulator made, again: the same chain, transaction and transfer log.
    const body = JSON.stringify({
      address: watched.address.toLowerCase(),
      amount: '1',
      asset: chain.tokenAddress.toLowerCase(),
      blockNumber: Number(receipt.blockNumber),
      counterAddress: sender.address.toLowerCase(),
      txId: tx,
      type: 'fungible',
      chain: 'ethereum-sepolia',
      subscriptionType: 'ADDRESS_EVENT',
    });
    const deliver = async (signature: string) =>
      fetch(PROCESS_PAYMENTS, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payload-hash': signature },
        body,
      });
    const redelivered = await deliver(await signPayload(stack.webhookSecret, body));
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toEqual({ received: true, recorded: 0 });
    const forged = await deliver(await signPayload('not-the-secret', body));
    expect(forged.status).toBe(401);

    const rows = (await history()).data ?? [];
    expect(rows.filter((r) => r.tx_hash === tx)).toHaveLength(1);
    const stored = (await notices()).data ?? [];
    expect(stored.filter((n) => n.message.includes(tx.slice(0, 10)))).toHaveLength(1);
  });

  it('does not notify anyone for a transfer between unwatched wallets', async () => {
    const service = serviceClient(stack);
    // A transfer from the (unwatched) sender to itself.
    const hash = await writeContract(wallet, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [sender.address, 1n],
      chain: null,
    });
    await waitForTransactionReceipt(publicClient, { hash });
    await deliveredThroughNextTransfer();
    const mentions = await service
      .from('user_notifications')
      .select('id')
      .like('message', `%${hash.slice(0, 10)}%`);
    expect(mentions.error).toBeNull();
    expect(mentions.data).toEqual([]);
    const recorded = await service.from('transactions').select('id').ilike('tx_hash', hash);
    expect(recorded.data).toEqual([]);
  });
});

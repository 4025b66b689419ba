import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain, ChainAccount } from '../../stack/chain/index.ts';
import type { Gateway } from '../../stack/gateway/index.ts';
import { startOwnStack, type OwnStack } from '../support/stack/own-stack.ts';
import { serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';
import { releaseWalletAsServer, setWalletAsServer } from '../support/stack/wallets.ts';

// A chain reorganisation end to end, on a chain of this file's own (the shared one cannot be
// rewound under the other files): a DDEX transfer is recorded from the emulator's delivery, the
// chain is rewound past it, the emulator replays the delivery with `reorg: true` as Tatum's re-org
// follower does, and the history marks it dropped; mined again in a later block and replayed once
// more, the row is confirmed there. Each correction reaches the user once.

let stack: OwnStack;
let chain: Chain;
let gateway: Gateway;

beforeAll(async () => {
  stack = await startOwnStack('reorg', (own) => ({
    tokenAddress: own.tokenAddress,
    rpcUrl: own.rpcUrl,
    chainId: own.chainId,
    functions: 'node',
  }));
  ({ chain, gateway } = stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const account = (index: number): ChainAccount => {
  const found = chain.accounts[index];
  if (!found) throw new Error(`no account #${index}`);
  return found;
};

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function owner(wallet: string): Promise<TestUser> {
  const service = serviceClient(gateway);
  const user = await signedInUser(gateway, 'reorg');
  const { error } = await user.client.from('profiles').upsert({ id: user.id, email: user.email });
  if (error) throw new Error(`profile upsert failed: ${error.message}`);
  await releaseWalletAsServer(service, wallet);
  await setWalletAsServer(service, user.id, wallet, true);
  return user;
}

async function emulator(path: string, body: object): Promise<Response> {
  return fetch(`${gateway.tatumApiUrl ?? ''}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gateway.tatumApiKey },
    body: JSON.stringify(body),
  });
}

async function seenBy(user: TestUser) {
  const [transactions, notifications] = await Promise.all([
    user.client.from('transactions').select('*'),
    user.client.from('user_notifications').select('*'),
  ]);
  return { transactions: transactions.data ?? [], notifications: notifications.data ?? [] };
}

describe('a reorganisation replayed by the emulator', () => {
  it('drops the row of a transaction the chain lost, confirms it where it is mined again, telling the user once each', async () => {
    const sender = account(5);
    const recipient = account(6);
    const user = await owner(recipient.address);
    // The server watches a proven wallet by itself (watch-wallets): wait until the emulator has it.
    await expect
      .poll(async () => {
        const listed = await fetch(
          `${gateway.tatumApiUrl ?? ''}subscription?pageSize=50&address=${recipient.address}`,
          {
            headers: { 'x-api-key': gateway.tatumApiKey },
          },
        );
        return ((await listed.json()) as unknown[]).length;
      })
      .toBe(1);

    // A transfer signed once, so the very same transaction can be mined again after the rewind.
    const transport = http(chain.rpcUrl, { retryCount: 0 });
    const publicClient = createPublicClient({ transport });
    const wallet = createWalletClient({ account: privateKeyToAccount(sender.privateKey), transport });
    const request = await wallet.prepareTransactionRequest({
      to: chain.tokenAddress,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient.address, parseUnits('4', 18)],
      }),
      chain: null,
    });
    const signed = await wallet.signTransaction({ ...request, chain: null });
    const snapshot = await rpc('evm_snapshot');
    const hash = (await rpc('eth_sendRawTransaction', [signed])) as Hex;
    const firstBlock = Number((await publicClient.waitForTransactionReceipt({ hash })).blockNumber);
    await expect
      .poll(async () => (await seenBy(user)).transactions, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ tx_hash: hash, status: 'confirmed', block_number: firstBlock })]);

    // The chain reorganises past the transfer: it is in no block any more.
    expect(await rpc('evm_revert', [snapshot])).toBe(true);
    await rpc('evm_mine');
    expect(await rpc('eth_getTransactionReceipt', [hash])).toBeNull();
    const dropped = await emulator('emulator/reorg', { txId: hash });
    expect(await dropped.json()).toEqual({ replayed: 1 });
    await expect
      .poll(async () => (await seenBy(user)).transactions, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ tx_hash: hash, status: 'dropped' })]);

    // The same transaction is mined again, in a later block; the re-org follower replays it.
    await rpc('evm_mine');
    await rpc('eth_sendRawTransaction', [signed]);
    const secondBlock = Number((await publicClient.waitForTransactionReceipt({ hash })).blockNumber);
    expect(secondBlock).not.toBe(firstBlock);
    expect(await (await emulator('emulator/reorg', { txId: hash })).json()).toEqual({ replayed: 1 });
    await expect
      .poll(async () => (await seenBy(user)).transactions, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ tx_hash: hash, status: 'confirmed', block_number: secondBlock })]);

    const { notifications } = await seenBy(user);
    expect(notifications.map((n) => n.title).sort()).toEqual([
      'DDEX Received',
      'Transaction Dropped',
      'Transaction Updated',
    ]);
  }, 60_000);
});

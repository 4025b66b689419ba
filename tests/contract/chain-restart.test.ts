import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  getTransactionCount,
  getTransactionReceipt,
  readContract,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startChain, type Chain, type ChainAccount } from '../../stack/chain/index.ts';

// The local chain keeps its state in a journal it replays on start. A stop is
// not always clean: a crash can cut the journal's last line short, and a
// transfer can revert (mined, its nonce spent) before the stop. Either way the
// next start must bring back the balances and nonces as they were.

let dataDir: string;
let chain: Chain;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-chain-restart-'));
  chain = await startChain({ port: 0, dataDir });
});

afterEach(async () => {
  await chain.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const client = () => createPublicClient({ transport: http(chain.rpcUrl) });

async function restart(): Promise<void> {
  await chain.close();
  chain = await startChain({ port: 0, dataDir });
}

/** What a holder would look at: the DDEX balances of both parties and the sender's nonce. */
async function state(sender: ChainAccount, recipient: ChainAccount) {
  const balance = (holder: ChainAccount) =>
    readContract(client(), {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder.address],
    });
  return {
    sender: await balance(sender),
    recipient: await balance(recipient),
    nonce: await getTransactionCount(client(), { address: sender.address }),
  };
}

/**
 * A DDEX transfer signed here and sent as is, with its gas fixed so that one
 * bound to revert is sent (and mined) rather than refused by an estimate.
 */
async function transfer(from: ChainAccount, to: ChainAccount, amount: string): Promise<Hex> {
  const account = privateKeyToAccount(from.privateKey);
  const raw = await account.signTransaction({
    chainId: chain.chainId,
    nonce: await getTransactionCount(client(), { address: from.address }),
    to: chain.tokenAddress,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to.address, parseUnits(amount, 18)],
    }),
    gas: 100_000n,
    maxFeePerGas: parseUnits('10', 9),
    maxPriorityFeePerGas: 1n,
  });
  await sendRawTransaction(client(), { serializedTransaction: raw }).catch(() => undefined);
  return keccak256(raw);
}

function accounts(): [ChainAccount, ChainAccount] {
  const [, sender, recipient] = chain.accounts;
  if (!sender || !recipient) throw new Error('need two accounts');
  return [sender, recipient];
}

describe('local chain after an unclean stop', () => {
  it('starts after a crash tore the journal’s last line, and keeps what is sent after it', async () => {
    const [sender, recipient] = accounts();
    const before = await transfer(sender, recipient, '3');
    expect((await waitForTransactionReceipt(client(), { hash: before })).status).toBe('success');
    const beforeCrash = await state(sender, recipient);

    await chain.close();
    // What a crash halfway through writing the next line leaves behind.
    appendFileSync(
      join(dataDir, 'chain', 'journal.jsonl'),
      '{"method":"eth_sendRawTransaction","params":["0x02f8',
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    chain = await startChain({ port: 0, dataDir });
    expect(await state(sender, recipient)).toEqual(beforeCrash);

    const after = await transfer(sender, recipient, '4');
    expect((await waitForTransactionReceipt(client(), { hash: after })).status).toBe('success');
    const afterCrash = await state(sender, recipient);
    expect(afterCrash.nonce).toBe(beforeCrash.nonce + 1);

    await restart();
    expect(await state(sender, recipient)).toEqual(afterCrash);
    expect((await getTransactionReceipt(client(), { hash: after })).status).toBe('success');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('dropped 52 bytes'));
    warn.mockRestore();
  });

  it('keeps a reverted transfer and the one after it from the same account across a restart', async () => {
    const [sender, recipient] = accounts();
    const reverted = await transfer(sender, recipient, '2000000');
    expect((await waitForTransactionReceipt(client(), { hash: reverted })).status).toBe('reverted');
    const next = await transfer(sender, recipient, '5');
    expect((await waitForTransactionReceipt(client(), { hash: next })).status).toBe('success');
    const beforeStop = await state(sender, recipient);

    await restart();
    expect(await state(sender, recipient)).toEqual(beforeStop);
    // The history may show either one: both are still on the chain as they were.
    expect((await getTransactionReceipt(client(), { hash: reverted })).status).toBe('reverted');
    expect((await getTransactionReceipt(client(), { hash: next })).status).toBe('success');
  });
});

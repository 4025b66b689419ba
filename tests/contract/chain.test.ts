import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getChainId, readContract, waitForTransactionReceipt, writeContract } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type Chain } from '../../stack/chain/index.ts';

// The local chain of `npm run stack`: Hardhat on 127.0.0.1 with DDEX deployed
// on first start, its state kept across restarts and reset by --fresh.
let dataDir: string;
let chain: Chain;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-chain-'));
  chain = await startChain({ port: 0, dataDir });
});

afterAll(async () => {
  await chain.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const clientFor = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) });

async function ddexBalance(rpcUrl: string, tokenAddress: `0x${string}`, holder: `0x${string}`) {
  return readContract(clientFor(rpcUrl), {
    address: tokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

describe('local chain', () => {
  it('runs chain 31337 with DDEX deployed and its supply spread over the test accounts', async () => {
    const client = clientFor(chain.rpcUrl);
    expect(await getChainId(client)).toBe(31337);
    const read = (functionName: 'name' | 'symbol' | 'decimals') =>
      readContract(client, { address: chain.tokenAddress, abi: erc20Abi, functionName });
    expect(await read('name')).toBe('DDEX');
    expect(await read('symbol')).toBe('DDEX');
    expect(await read('decimals')).toBe(18);
    expect(chain.accounts.length).toBeGreaterThanOrEqual(3);
    for (const account of chain.accounts) {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
      expect(await ddexBalance(chain.rpcUrl, chain.tokenAddress, account.address)).toBeGreaterThan(0n);
    }
  });

  it('keeps the token address and a transfer across a restart, and --fresh starts over', async () => {
    const [sender, recipient] = chain.accounts;
    if (!sender || !recipient) throw new Error('need two accounts');
    const before = await ddexBalance(chain.rpcUrl, chain.tokenAddress, recipient.address);
    const wallet = createWalletClient({
      account: privateKeyToAccount(sender.privateKey),
      transport: http(chain.rpcUrl),
    });
    const hash = await writeContract(wallet, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient.address, parseUnits('12.5', 18)],
      chain: null,
    });
    await waitForTransactionReceipt(clientFor(chain.rpcUrl), { hash });
    const after = before + parseUnits('12.5', 18);
    expect(await ddexBalance(chain.rpcUrl, chain.tokenAddress, recipient.address)).toBe(after);

    const address = chain.tokenAddress;
    await chain.close();
    chain = await startChain({ port: 0, dataDir });
    expect(chain.tokenAddress).toBe(address);
    expect(await ddexBalance(chain.rpcUrl, chain.tokenAddress, recipient.address)).toBe(after);
    const receipt = await clientFor(chain.rpcUrl).getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');

    await chain.close();
    chain = await startChain({ port: 0, dataDir, fresh: true });
    expect(chain.tokenAddress).toBe(address);
    expect(await ddexBalance(chain.rpcUrl, chain.tokenAddress, recipient.address)).toBe(before);
  });
});

import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { ChainAccount } from '../../../stack/chain/index.ts';

// The stack's chain as the contract and e2e layers use it: viem clients for its node, transfers of
// DDEX and ETH between its funded accounts, and balances. Each layer passes its chain: the contract
// layer `inject('chain')`, the e2e layer `e2e().chain`.

/** What these helpers need of a layer's chain: its node and the DDEX contract on it. */
export type ChainInfo = { rpcUrl: string; tokenAddress: Address };

const newReader = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
const readers = new Map<string, ReturnType<typeof newReader>>();

/** A public client for the chain's node (one per rpcUrl), with no retries: a failure shows at once. */
export function readerOf(chain: { rpcUrl: string }) {
  let reader = readers.get(chain.rpcUrl);
  if (!reader) {
    reader = newReader(chain.rpcUrl);
    readers.set(chain.rpcUrl, reader);
  }
  return reader;
}

/** A wallet client that signs as `account` with its private key and sends to the chain's node. */
export function walletOf(chain: { rpcUrl: string }, account: ChainAccount) {
  return createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    transport: http(chain.rpcUrl, { retryCount: 0 }),
  });
}

/** Waits for the transaction's receipt and expects it to have succeeded. */
export async function mined(chain: { rpcUrl: string }, hash: Hex): Promise<TransactionReceipt> {
  const receipt = await readerOf(chain).waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

/** Sends `amount` DDEX (smallest unit) from `from` to `to`; its hash once it has succeeded. */
export async function sendDdex(
  chain: ChainInfo,
  from: ChainAccount,
  to: { address: Address },
  amount: bigint,
): Promise<Hex> {
  const hash = await walletOf(chain, from).writeContract({
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to.address, amount],
    chain: null,
  });
  await mined(chain, hash);
  return hash;
}

/** Sends `value` wei from `from` to `to`; the transaction's receipt once mined, whatever its status. */
export async function sendEth(
  chain: { rpcUrl: string },
  from: ChainAccount,
  to: { address: Address },
  value: bigint,
): Promise<TransactionReceipt> {
  const hash = await walletOf(chain, from).sendTransaction({ to: to.address, value, chain: null });
  return readerOf(chain).waitForTransactionReceipt({ hash });
}

/**
 * An account's DDEX balance, in the token's smallest unit, read from the node by a client of its
 * own with viem's default retries (as the e2e layer has always read balances).
 */
export async function tokenBalance(chain: ChainInfo, address: Address): Promise<bigint> {
  const reader = createPublicClient({ transport: http(chain.rpcUrl) });
  return reader.readContract({
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
}

import type { Client, Hash, TransactionReceipt } from 'viem';
import { call, getTransaction, waitForTransactionReceipt } from 'viem/actions';
import { revertReason, summarise } from './dex-errors.ts';
import { DexServiceError } from './types.ts';

// Waiting for what the wallet sent, and reading why it reverted.

/**
 * The receipt of a sent transaction. No receipt in time, or the node failing meanwhile: it may
 * still be mined, so the hash goes with the error. A revert is replayed to read the reason.
 */
export async function settle(
  client: Client,
  hash: Hash,
  timing: { timeoutMs: number; pollingIntervalMs: number },
): Promise<TransactionReceipt> {
  let receipt: TransactionReceipt;
  try {
    receipt = await waitForTransactionReceipt(client, {
      hash,
      timeout: timing.timeoutMs,
      pollingInterval: timing.pollingIntervalMs,
    });
  } catch (error) {
    throw new DexServiceError({ code: 'not-confirmed', hash }, { cause: summarise(error) });
  }
  if (receipt.status === 'reverted') {
    throw new DexServiceError({
      code: 'reverted',
      hash,
      reason: await reasonOf(client, hash, receipt.blockNumber),
    });
  }
  return receipt;
}

/**
 * The revert string, from the same call run again against the block it was mined in (a receipt
 * carries no reason); null when the node gives none or the call passes there now.
 */
async function reasonOf(client: Client, hash: Hash, blockNumber: bigint): Promise<string | null> {
  try {
    const tx = await getTransaction(client, { hash });
    if (!tx.to) return null;
    await call(client, {
      account: tx.from,
      to: tx.to,
      data: tx.input,
      value: tx.value,
      gas: tx.gas,
      blockNumber,
    });
    return null;
  } catch (error) {
    return revertReason(error);
  }
}

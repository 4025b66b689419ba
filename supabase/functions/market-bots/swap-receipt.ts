import { RpcError, type RpcCall } from '../_shared/rpc.ts';
import { parseReceipt, type Receipt } from '../_shared/transfer-log.ts';

// The chain's word on one transaction, as market-bots needs it: its receipt and, only when it
// swapped on the pair, its block's number and time. A node that does not know the transaction
// yet (a delivery can outrun a load-balanced node) is an RpcError, so the delivery is answered
// 5xx and Tatum tries again later.

const QUANTITY = /^0x[0-9a-f]{1,16}$/i;

export type MinedReceipt = { receipt: Receipt; blockNumber: number };

/** The receipt of `txHash` and the number of the block that holds it. */
export async function readReceipt(rpc: RpcCall, txHash: string): Promise<MinedReceipt> {
  const raw = await rpc('eth_getTransactionReceipt', [txHash]);
  if (raw === null) throw new RpcError(`${txHash}: the node has no receipt for it (yet)`);
  const receipt = parseReceipt(raw);
  const blockNumber = quantity((raw as { blockNumber?: unknown }).blockNumber);
  if (receipt === null || blockNumber === null) {
    throw new RpcError(`${txHash}: the node's receipt is not one this function can read`);
  }
  return { receipt, blockNumber };
}

/** When block `number` was mined, as an ISO timestamp. */
export async function blockTime(rpc: RpcCall, number: number): Promise<string> {
  const block = await rpc('eth_getBlockByNumber', [`0x${number.toString(16)}`, false]);
  const seconds =
    typeof block === 'object' && block !== null
      ? quantity((block as { timestamp?: unknown }).timestamp)
      : null;
  if (seconds === null) throw new RpcError(`block ${number}: the node has no readable block for it`);
  return new Date(seconds * 1000).toISOString();
}

function quantity(value: unknown): number | null {
  if (typeof value !== 'string' || !QUANTITY.test(value)) return null;
  const number = Number.parseInt(value, 16);
  return Number.isSafeInteger(number) ? number : null;
}

import { createRpcClient, RpcError } from '../_shared/rpc.ts';
import { swappingPools, transactionSender } from '../_shared/swap-log.ts';
import { parseReceipt } from '../_shared/transfer-log.ts';
import { marketPair } from '../_shared/uniswap-pair.ts';
import type { AddressEvent } from '../_shared/address-event.ts';

// A swap on the DDEX/WETH Uniswap V2 market reaches Tatum as a DDEX transfer between the wallet
// and the pair (the pair pays a buyer; a seller's DDEX goes into the pair). record-transaction
// records that swap as one `swap` row, so a transfer row here would list the trade twice: such a
// transfer is notified and not recorded. Only the swaps record-transaction records are left to
// it: the wallet sent the transaction, and the pair swapped in it. DDEX another wallet bought
// for this one, or liquidity added or taken out, has the pair on the other side too, but no swap
// row will hold it, so it stays a transfer row.

/** Whether the event is a transfer of `token` with `pair` on its other side (addresses in any case). */
export function isPairTransfer(event: AddressEvent, token: string, pair: string): boolean {
  return (
    event.type === 'token' &&
    event.asset.toLowerCase() === token.toLowerCase() &&
    event.counterAddress?.toLowerCase() === pair.toLowerCase()
  );
}

/**
 * Whether `wallet` made a swap on `pair` in this transaction, from the node's raw
 * eth_getTransactionByHash and eth_getTransactionReceipt results: the wallet sent it and the pair
 * emitted a Swap (a reverted transaction has no logs, so none). Null when either answer is
 * missing or unreadable: the node does not know the transaction (yet), which is no answer.
 */
export function isOwnSwap(
  transaction: unknown,
  receipt: unknown,
  wallet: string,
  pair: string,
): boolean | null {
  const sender = transactionSender(transaction);
  const parsed = parseReceipt(receipt);
  if (sender === null || parsed === null) return null;
  return sender === wallet.toLowerCase() && swappingPools(parsed).has(pair.toLowerCase());
}

export type SwapLegCheck = (event: AddressEvent) => Promise<boolean>;

export type MarketOptions = {
  /** The JSON-RPC endpoint of the chain the market lives on (RPC_URL). */
  rpcUrl: string;
  /** The market's UniswapV2Router02 (UNISWAP_V2_ROUTER); the pair is read from it. */
  router: string;
  /** The DDEX contract: only its transfers can be a leg of the market's swaps. */
  tokenAddress: string;
  fetch?: typeof fetch;
};

/**
 * Whether an event is the DDEX leg of the wallet's own swap on the market. The chain is asked
 * only for a DDEX transfer with a counterparty: the pair once per instance, and the transaction
 * only when the counterparty is the pair. A node that cannot answer is an error (RpcError), so
 * the delivery is answered 5xx and Tatum tries it again, rather than recorded the wrong way.
 */
export function swapLegCheck(options: MarketOptions): SwapLegCheck {
  const rpc = createRpcClient(options.rpcUrl, options.fetch ? { fetch: options.fetch } : {});
  const token = options.tokenAddress.toLowerCase();
  const pair = marketPair(rpc, options.router, token);
  return async (event) => {
    if (event.type !== 'token' || event.asset.toLowerCase() !== token || event.counterAddress === null) {
      return false;
    }
    const market = await pair();
    if (market === null || !isPairTransfer(event, token, market)) return false;
    const txHash = event.txId.toLowerCase();
    const [transaction, receipt] = await Promise.all([
      rpc('eth_getTransactionByHash', [txHash]),
      rpc('eth_getTransactionReceipt', [txHash]),
    ]);
    const own = isOwnSwap(transaction, receipt, event.address, market);
    if (own === null)
      throw new RpcError(`${txHash}: the node has no readable transaction and receipt for it`);
    return own;
  };
}

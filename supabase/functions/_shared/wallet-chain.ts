// The chain's word on one transaction of a wallet: its receipt read once, turned into the wallet's
// history rows (wallet-activity.ts), with the block that holds it. process-payments and
// record-transaction both ask through here, so the two writers of a row agree on it.
import { ADDRESS } from './address.ts';
import { RpcError, type RpcCall } from './rpc.ts';
import { swappingPools } from './swap-log.ts';
import { decodeDecimals, parseReceipt, type Receipt } from './transfer-log.ts';
import { marketOf, once } from './uniswap-pair.ts';
import { walletActivity, type ActivityRow } from './wallet-activity.ts';

export type MinedTransaction = {
  receipt: Receipt;
  /** Who sent it (lower case), from the receipt's `from`. */
  sender: string;
  blockNumber: number;
};

export type WalletTransaction = MinedTransaction & { rows: ActivityRow[] };

export type WalletChain = {
  /** The mined transaction, or null when the node has no receipt for it (not mined, or gone). */
  mined(txHash: string): Promise<MinedTransaction | null>;
  /** The wallet's rows of a mined transaction (none when it reverted). */
  activity(mined: MinedTransaction, wallet: string): Promise<ActivityRow[]>;
  /** DDEX's contract, lower case. */
  token: string;
  /** The market's router, lower case, or null where none is configured. */
  router: string | null;
};

const QUANTITY = /^0x[0-9a-f]{1,16}$/i;
const DECIMALS = '0x313ce567'; // decimals()

export function walletChain(options: {
  rpc: RpcCall;
  tokenAddress: string;
  uniswapRouter?: string | null;
  /** The project's faucet wallet, whose DDEX is told as a claim (a `faucet` row). */
  faucetAddress?: string | null;
}): WalletChain {
  const { rpc } = options;
  const token = options.tokenAddress.toLowerCase();
  const router = options.uniswapRouter?.toLowerCase() ?? null;
  const market = router ? marketOf(rpc, router, token) : async () => null;
  const decimals = tokenDecimals(rpc, token);

  return {
    token,
    router,
    async mined(txHash) {
      const raw = await rpc('eth_getTransactionReceipt', [txHash.toLowerCase()]);
      if (raw === null) return null;
      const receipt = parseReceipt(raw);
      const fields = raw as { blockNumber?: unknown; from?: unknown };
      const blockNumber = quantity(fields.blockNumber);
      const sender = typeof fields.from === 'string' ? fields.from.toLowerCase() : '';
      if (receipt === null || blockNumber === null || !ADDRESS.test(sender)) {
        throw new RpcError(`eth_getTransactionReceipt: the receipt of ${txHash} is not readable`);
      }
      return { receipt, sender, blockNumber };
    },
    async activity(mined, wallet) {
      if (mined.receipt.status !== 'success') return [];
      // The market is asked only of a transaction in which some pool swapped.
      const found = swappingPools(mined.receipt).size > 0 ? await market() : null;
      return walletActivity(mined.receipt, {
        wallet,
        sender: mined.sender,
        token,
        decimals: await decimals(),
        // WETH is token0 when its address sorts first, as the factory orders every pair.
        market: found ? { pair: found.pair, wethIsToken0: found.weth < token } : null,
        faucet: options.faucetAddress ?? null,
      });
    },
  };
}

/** DDEX's decimals(), asked once per function instance; a failed read is asked again. */
export function tokenDecimals(rpc: RpcCall, tokenAddress: string): () => Promise<number> {
  return once(async () => {
    const value = decodeDecimals(await rpc('eth_call', [{ to: tokenAddress, data: DECIMALS }, 'latest']));
    if (value === null) throw new RpcError('decimals(): the DDEX contract did not return a uint8');
    return value;
  });
}

function quantity(value: unknown): number | null {
  if (typeof value !== 'string' || !QUANTITY.test(value)) return null;
  const number = Number.parseInt(value, 16);
  return Number.isSafeInteger(number) ? number : null;
}

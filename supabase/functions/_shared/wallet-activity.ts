// What one transaction did to a wallet's DDEX, read from its receipt: the history rows the chain
// vouches for, whichever app sent it. process-payments writes them when Tatum tells of the
// transaction, record-transaction when the portal asks right after its own send or swap; both
// read the same receipt through this module, so their rows meet on one key (record_wallet_row)
// and a swap the portal made looks like one made by a script.
import { ADDRESS, ADDRESS_WORD } from './address.ts';
import { decodeSwap, findWalletSwaps, swappingPools } from './swap-log.ts';
import { decodeTransfer, formatUnits, type RawLog, type Receipt } from './transfer-log.ts';

/** keccak256('Approval(address,address,uint256)') */
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

/** 2^256 - 1: the allowance wallets and DEX interfaces call unlimited. */
export const UNLIMITED = (1n << 256n) - 1n;

export type ActivityRow = {
  type: 'swap' | 'token_sent' | 'token_received' | 'faucet' | 'approval';
  /** The log the row is keyed by: the Swap, Transfer or Approval (null only where a node leaves it out). */
  logIndex: number | null;
  /** DDEX, signed from the wallet's side (negative when it left); an approval's allowance. */
  amount: string;
  /** The other side of a transfer, an approval's spender; null for a swap. */
  counterparty: string | null;
  /** A swap's ETH leg, signed from the wallet's side; null for the other kinds. */
  counterAmount: string | null;
  unlimited: boolean;
};

export type ActivityContext = {
  /** The wallet whose history this is (any letter case). */
  wallet: string;
  /** Who sent the transaction (lower case): a swap is the wallet's own only when it sent it. */
  sender: string;
  /** DDEX's contract and decimals. */
  token: string;
  decimals: number;
  /** The DDEX/WETH pair and whether WETH is its token0; null where no market is configured. */
  market: { pair: string; wethIsToken0: boolean } | null;
  /** The project's faucet wallet (FAUCET_ADDRESS, any case): DDEX it pays in is a `faucet` row. */
  faucet?: string | null;
};

export type Approval = { token: string; owner: string; spender: string; value: bigint };

const WORD = /^0x[0-9a-f]{64}$/;

/** The log as an ERC-20 Approval, or null (ERC-721's shares the topic but indexes the token id). */
export function decodeApproval(log: RawLog): Approval | null {
  if (log.removed || log.topics.length !== 3) return null;
  const [topic0, ownerTopic, spenderTopic] = log.topics.map((topic) => topic.toLowerCase());
  const token = log.address.toLowerCase();
  const data = log.data.toLowerCase();
  if (topic0 !== APPROVAL_TOPIC || !ADDRESS.test(token) || !WORD.test(data)) return null;
  const owner = ownerTopic?.match(ADDRESS_WORD)?.[1];
  const spender = spenderTopic?.match(ADDRESS_WORD)?.[1];
  if (owner === undefined || spender === undefined) return null;
  return { token, owner: `0x${owner}`, spender: `0x${spender}`, value: BigInt(data) };
}

/**
 * The wallet's rows of one successful transaction, in log order: each of its own swaps on the
 * market as one row with both legs, each DDEX transfer in or out that is not a leg of a swap, and
 * each DDEX approval it gave. DDEX another wallet's swap paid to this one stays a transfer: no
 * swap row of this wallet holds it.
 */
export function walletActivity(receipt: Receipt, context: ActivityContext): ActivityRow[] {
  if (receipt.status !== 'success') return [];
  const wallet = context.wallet.toLowerCase();
  const token = context.token.toLowerCase();
  const rows: ActivityRow[] = [];
  const market = context.market;
  const faucet = context.faucet?.toLowerCase() ?? null;
  const ownSwaps =
    market !== null && context.sender === wallet ? findWalletSwaps(receipt, market.pair, token, wallet) : [];
  const legsGoToSwaps = ownSwaps.length > 0 && market !== null;
  // DDEX the wallet moved into a pool that swapped in this transaction paid for a swap: it is the
  // swap's row (or, outside the market, no row), never a send.
  const pools = swappingPools(receipt);

  for (const swap of ownSwaps) {
    const log = receipt.logs.find((candidate) => candidate.logIndex === swap.logIndex);
    const decoded = log ? decodeSwap(log) : null;
    rows.push({
      type: 'swap',
      logIndex: swap.logIndex ?? null,
      amount: formatUnits(swap.amount, context.decimals),
      counterparty: null,
      counterAmount: decoded && market ? formatUnits(ethLeg(decoded, market.wethIsToken0), 18) : null,
      unlimited: false,
    });
  }
  for (const log of receipt.logs) {
    const transfer = decodeTransfer(log);
    if (transfer && transfer.token === token) {
      const out = transfer.from === wallet;
      const into = transfer.to === wallet;
      if (!out && !into) continue;
      const other = out ? transfer.to : transfer.from;
      if (legsGoToSwaps && other === market?.pair) continue;
      // A transfer to oneself left and arrived: two rows, as Tatum tells both sides.
      if (out && !pools.has(transfer.to))
        rows.push(
          transferRow('token_sent', log, `-${formatUnits(transfer.value, context.decimals)}`, transfer.to),
        );
      if (into)
        rows.push(
          transferRow(
            transfer.from === faucet ? 'faucet' : 'token_received',
            log,
            formatUnits(transfer.value, context.decimals),
            transfer.from,
          ),
        );
      continue;
    }
    const approval = decodeApproval(log);
    if (approval && approval.token === token && approval.owner === wallet) {
      rows.push({
        type: 'approval',
        logIndex: log.logIndex ?? null,
        amount: formatUnits(approval.value, context.decimals),
        counterparty: approval.spender,
        counterAmount: null,
        unlimited: approval.value === UNLIMITED,
      });
    }
  }
  return rows.sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
}

/** WETH into the pair is ETH the wallet paid (negative); WETH out of it, ETH it got. */
function ethLeg(swap: NonNullable<ReturnType<typeof decodeSwap>>, wethIsToken0: boolean): bigint {
  return wethIsToken0 ? swap.amount0Out - swap.amount0In : swap.amount1Out - swap.amount1In;
}

function transferRow(
  type: 'token_sent' | 'token_received' | 'faucet',
  log: RawLog,
  amount: string,
  counterparty: string,
): ActivityRow {
  return {
    type,
    logIndex: log.logIndex ?? null,
    amount: amount === '-0' ? '0' : amount,
    counterparty,
    counterAmount: null,
    unlimited: false,
  };
}

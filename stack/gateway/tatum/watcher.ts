import { createPublicClient, http, type Address, type Hex, type Log, type PublicClient } from 'viem';
import { getBlock, getBlockNumber, getLogs, getTransactionReceipt, readContract } from 'viem/actions';
import { erc20Abi } from 'viem';
import { addressEvents, type BlockActivity, type PaidFee, type TokenTransfer } from './events.ts';
import type { TatumStore } from './store.ts';
import { errorLine } from '../../../supabase/functions/_shared/log.ts';

// Follows the chain block by block from where it stopped (the cursor survives
// restarts) and owes a webhook delivery for every transfer touching a watched
// address. Blocks are read in order and the cursor moves only together with
// the deliveries a block owes, so no block is skipped and none is owed twice.

export type BlockWatcher = { stop(): Promise<void> };

export type WatcherOptions = {
  rpcUrl: string;
  store: TatumStore;
  /** Called after a block owed at least one delivery. */
  onOwed: () => void;
  /** Tatum's name of the account's network, which a subscription made with the SDK's 'ETH' is on. */
  chain: string;
  pollMs?: number;
};

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const MAX_BLOCKS_PER_TICK = 50;
// Hardhat mines a block per transaction; asking for the head ten times a
// second costs little and keeps transfer → notification well under 300 ms.
const POLL_MS = 100;

export async function startBlockWatcher(options: WatcherOptions): Promise<BlockWatcher> {
  const client = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
  const { store } = options;
  const decimalsByToken = new Map<string, number | null>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let lastProblem: string | null = null;

  // Only blocks mined after the first start are watched, as with hosted Tatum.
  if (!(await store.cursor())) {
    const head = await getBlock(client, { blockTag: 'latest' });
    await store.moveCursor({ blockNumber: head.number, blockHash: head.hash });
  }

  const tick = async () => {
    const cursor = await store.cursor();
    if (!cursor) return;
    const head = await getBlockNumber(client, { cacheTime: 0 });
    if (head === cursor.blockNumber) return;
    const atCursor =
      head > cursor.blockNumber ? await getBlock(client, { blockNumber: cursor.blockNumber }) : null;
    if (!atCursor || atCursor.hash !== cursor.blockHash) {
      // The chain was reset underneath us (`--fresh` for the chain only, or a
      // different node): what was read before no longer exists. Start over at its head.
      const latest = await getBlock(client, { blockTag: 'latest' });
      console.warn(
        `[tatum] the chain no longer has block ${cursor.blockNumber}; watching from ${latest.number}`,
      );
      await store.moveCursor({ blockNumber: latest.number, blockHash: latest.hash });
      return;
    }
    const batchEnd = cursor.blockNumber + BigInt(MAX_BLOCKS_PER_TICK);
    const last = head < batchEnd ? head : batchEnd;
    for (let number = cursor.blockNumber + 1n; number <= last && !stopped; number += 1n) {
      const watchers = await store.watchers(number);
      const activity = await readBlock(client, number, watchers, decimalsByToken);
      const events = addressEvents(activity, (address) => watchers.has(address), options.chain);
      const owed = events.flatMap((event) =>
        (watchers.get(event.address) ?? []).map((subscription) => ({
          event,
          subscription,
          body: JSON.stringify({
            ...event.payload,
            chain: deliveredChain(subscription.chain, options.chain),
            subscriptionId: subscription.id,
          }),
        })),
      );
      const added = await store.owe(owed, { blockNumber: number, blockHash: activity.hash });
      if (added > 0) options.onOwed();
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .then(() => {
          if (lastProblem) console.warn('[tatum] the chain answers again; following blocks');
          lastProblem = null;
        })
        .catch((error: unknown) => {
          // The chain may be restarting; say so once, keep trying.
          const problem = errorLine(error);
          if (problem !== lastProblem) console.warn(`[tatum] reading the chain failed: ${problem}`);
          lastProblem = problem;
        })
        .finally(schedule);
    }, options.pollMs ?? POLL_MS);
  };
  schedule();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

async function readBlock(
  client: PublicClient,
  number: bigint,
  watchers: Map<string, unknown>,
  decimalsByToken: Map<string, number | null>,
): Promise<BlockActivity & { hash: Hex }> {
  const block = await getBlock(client, { blockNumber: number, includeTransactions: true });
  const transactions = block.transactions.map((tx) => ({
    hash: tx.hash,
    from: tx.from,
    to: tx.to,
    value: tx.value,
  }));
  const timestamp = block.timestamp;
  if (watchers.size === 0) {
    return { number, timestamp, hash: block.hash, transactions, fees: [], tokenTransfers: [] };
  }

  // Receipts only for watched senders: the fee is the only thing they add.
  const fees: PaidFee[] = [];
  for (const tx of transactions) {
    if (!watchers.has(tx.from.toLowerCase())) continue;
    const receipt = await getTransactionReceipt(client, { hash: tx.hash });
    fees.push({ hash: tx.hash, from: tx.from, fee: receipt.gasUsed * receipt.effectiveGasPrice });
  }

  const logs = await getLogs(client, { fromBlock: number, toBlock: number });
  const tokenTransfers: TokenTransfer[] = [];
  for (const log of logs) {
    const transfer = await asTokenTransfer(client, log, decimalsByToken);
    if (transfer) tokenTransfers.push(transfer);
  }
  return { number, timestamp, hash: block.hash, transactions, fees, tokenTransfers };
}

/** An ERC-20 Transfer log (ERC-721's has the id as a third indexed topic and is not one). */
async function asTokenTransfer(
  client: PublicClient,
  log: Log,
  decimalsByToken: Map<string, number | null>,
): Promise<TokenTransfer | null> {
  const [topic, fromTopic, toTopic] = log.topics;
  if (topic !== TRANSFER_TOPIC || log.topics.length !== 3 || !fromTopic || !toTopic) return null;
  if (log.data.length !== 66 || log.transactionHash === null || log.logIndex === null) return null;
  const decimals = await tokenDecimals(client, log.address, decimalsByToken);
  if (decimals === null) return null;
  return {
    hash: log.transactionHash,
    logIndex: log.logIndex,
    token: log.address,
    decimals,
    from: topicAddress(fromTopic),
    to: topicAddress(toTopic),
    value: BigInt(log.data),
  };
}

async function tokenDecimals(
  client: PublicClient,
  token: Address,
  cache: Map<string, number | null>,
): Promise<number | null> {
  const key = token.toLowerCase();
  if (!cache.has(key)) {
    // A contract without decimals() is not a fungible token Tatum would report.
    const decimals = await readContract(client, {
      address: token,
      abi: erc20Abi,
      functionName: 'decimals',
    }).catch(() => null);
    cache.set(key, decimals);
  }
  return cache.get(key) ?? null;
}

/**
 * The `chain` a delivery names. Hosted Tatum answers with the network's v4 name
 * ('ethereum-sepolia'), never the SDK's 'ETH', which it resolves by the API key's network; a
 * subscription that named a v4 network keeps it.
 */
function deliveredChain(subscribed: string, network: string): string {
  return subscribed.startsWith('ethereum-') ? subscribed : network;
}

function topicAddress(topic: Hex): Address {
  return `0x${topic.slice(-40)}`;
}

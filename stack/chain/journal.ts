import type { Eip1193Provider } from './hardhat.ts';
import {
  isTimestamp,
  journalWriter,
  readJournal,
  type JournalEntry,
  type JournalLog,
} from './journal-file.ts';

// Hardhat keeps chain state in memory only. To let balances and transfers
// survive a restart, every state-changing call that changed the chain is
// appended to a journal and replayed on the next start. Signed transactions
// replay byte for byte, so their hashes (kept in transaction history) stay
// valid. A transaction that reverts is journalled too: Hardhat answers it with
// an error, yet mined it and spent its nonce, and without it every later
// transaction of its sender would fail to replay. Each transaction's line also
// keeps its block's time, and the replay mines it at that time again: a swap
// signed with a 20-minute deadline would otherwise revert when replayed the
// next day, and the market's price history would move to the replay's time.

const STATE_CHANGING = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
  'hardhat_mine',
  'evm_increaseTime',
  'evm_setNextBlockTimestamp',
  'hardhat_setBalance',
]);
/** The calls that mine one transaction, whose block time is kept. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

export async function replayJournal(
  provider: Eip1193Provider,
  path: string,
  log: JournalLog = console,
): Promise<number> {
  return replayEntries(provider, readJournal(path, log), log);
}

/**
 * When the node's first block must be for a replay to keep the journal's block times: before the
 * first line that has one, with a second to spare for each line before it (a journal begun before
 * times were kept). Undefined when no line has one: the node starts at the current time.
 */
export function journalGenesis(entries: readonly JournalEntry[]): Date | undefined {
  const first = entries.findIndex((entry) => entry.timestamp !== undefined);
  const timestamp = entries[first]?.timestamp;
  return timestamp === undefined ? undefined : new Date((timestamp - first - 1) * 1000);
}

export async function replayEntries(
  provider: Eip1193Provider,
  entries: readonly JournalEntry[],
  log: JournalLog = console,
): Promise<number> {
  let timesLost = 0;
  for (const [index, entry] of entries.entries()) {
    // Refused when the node's clock is already past it (lines from before times were kept ran
    // long): the transaction is then mined at the node's time, as it was before.
    if (entry.timestamp !== undefined) {
      await provider
        .request({ method: 'evm_setNextBlockTimestamp', params: [entry.timestamp] })
        .catch(() => (timesLost += 1));
    }
    try {
      await provider.request({ method: entry.method, params: entry.params });
    } catch (error) {
      if (entry.reverted && (await minedIn(provider, error)) !== null) continue;
      throw new Error(
        `Replaying the chain journal failed at line ${index + 1} (${entry.method}): ` +
          `${(error as Error).message}. Start with --fresh to begin a new chain.`,
        { cause: error },
      );
    }
  }
  if (timesLost > 0) {
    log.warn(`Chain journal: ${timesLost} transaction(s) replayed at a later time than they were mined.`);
  }
  if (entries.some((entry) => entry.timestamp !== undefined)) await catchUpClock(provider);
  return entries.length;
}

/**
 * After a replay the node's clock carries on from the last replayed block, as far behind the
 * wall clock as the chain was stopped: moved forward, so new blocks are mined at the current time.
 */
async function catchUpClock(provider: Eip1193Provider): Promise<void> {
  const latest = await blockTime(provider, 'latest');
  const behind = latest === null ? 0 : Math.floor(Date.now() / 1000) - latest;
  if (behind > 0) await provider.request({ method: 'evm_increaseTime', params: [behind] });
}

export function journaled<P extends Eip1193Provider>(
  provider: P,
  path: string,
  log: JournalLog = console,
): P {
  const append = journalWriter(path, log);
  // Lines go down in the order Hardhat answered, which is the order it mined
  // in. A failed call needs one more question before its line is known, so
  // each line waits for the one before it.
  let previous: Promise<void> = Promise.resolve();
  const inTurn = (entry: () => Promise<JournalEntry | null>): Promise<void> => {
    previous = previous
      .then(entry)
      .then((line) => {
        if (line) append(line);
      })
      .catch((error: unknown) => {
        // Only the lookup can fail. The call was answered: its caller still hears how it went.
        log.error(
          `Chain journal: could not tell whether a failed call was mined (${(error as Error).message}).`,
        );
      });
    return previous;
  };

  const request: Eip1193Provider['request'] = async (args) => {
    if (!STATE_CHANGING.has(args.method)) return provider.request(args);
    const entry: JournalEntry = { method: args.method, params: args.params ?? [] };
    let result: unknown;
    try {
      result = await provider.request(args);
    } catch (error) {
      await inTurn(async () => {
        const block = await minedIn(provider, error);
        return block === null ? null : { ...entry, reverted: true, ...(await timeOf(provider, block)) };
      });
      throw error;
    }
    await inTurn(async () =>
      SENDS.has(args.method) && typeof result === 'string'
        ? { ...entry, ...(await timeOf(provider, await blockOf(provider, result))) }
        : entry,
    );
    return result;
  };
  // Everything but request (event listeners for subscriptions) goes to Hardhat's provider.
  return new Proxy(provider, {
    get: (target, key, receiver) => (key === 'request' ? request : Reflect.get(target, key, receiver)),
  });
}

/**
 * The block a failed call still mined its transaction in (a revert), or null. Hardhat names the
 * transaction on such an error only; the lookup confirms it is in a block. A hash computed from a
 * raw transaction would not do: one sent twice is refused the second time, yet its hash is in a
 * block from the first.
 */
async function minedIn(provider: Eip1193Provider, error: unknown): Promise<string | null> {
  const hash = (error as { transactionHash?: unknown } | null)?.transactionHash;
  if (typeof hash !== 'string') return null;
  const mined = (await provider.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    blockNumber?: string | null;
  } | null;
  return typeof mined?.blockNumber === 'string' ? mined.blockNumber : null;
}

/** The block a sent transaction was mined in; null when the node cannot tell. */
async function blockOf(provider: Eip1193Provider, hash: string): Promise<string | null> {
  try {
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      blockNumber?: unknown;
    } | null;
    return typeof receipt?.blockNumber === 'string' ? receipt.blockNumber : null;
  } catch {
    return null;
  }
}

/** `{ timestamp }` of a block, or nothing when it cannot be read: the line is kept without it. */
async function timeOf(provider: Eip1193Provider, block: string | null): Promise<{ timestamp?: number }> {
  const timestamp = block === null ? null : await blockTime(provider, block);
  return timestamp === null ? {} : { timestamp };
}

async function blockTime(provider: Eip1193Provider, block: string): Promise<number | null> {
  try {
    const found = (await provider.request({ method: 'eth_getBlockByNumber', params: [block, false] })) as {
      timestamp?: unknown;
    } | null;
    const timestamp = typeof found?.timestamp === 'string' ? Number(found.timestamp) : NaN;
    return isTimestamp(timestamp) ? timestamp : null;
  } catch {
    return null;
  }
}

import type { Eip1193Provider } from './hardhat.ts';
import { journalWriter, readJournal, type JournalEntry, type JournalLog } from './journal-file.ts';

// Hardhat keeps chain state in memory only. To let balances and transfers
// survive a restart, every state-changing call that changed the chain is
// appended to a journal and replayed on the next start. Signed transactions
// replay byte for byte, so their hashes (kept in transaction history) stay
// valid. A transaction that reverts is journalled too: Hardhat answers it with
// an error, yet mined it and spent its nonce, and without it every later
// transaction of its sender would fail to replay.

const STATE_CHANGING = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
  'hardhat_mine',
  'evm_increaseTime',
  'evm_setNextBlockTimestamp',
  'hardhat_setBalance',
]);

export async function replayJournal(
  provider: Eip1193Provider,
  path: string,
  log: JournalLog = console,
): Promise<number> {
  const entries = readJournal(path, log);
  for (const [index, entry] of entries.entries()) {
    try {
      await provider.request({ method: entry.method, params: entry.params });
    } catch (error) {
      if (entry.reverted && (await minedDespite(provider, error))) continue;
      throw new Error(
        `Replaying the chain journal failed at line ${index + 1} (${entry.method}): ` +
          `${(error as Error).message}. Start with --fresh to begin a new chain.`,
        { cause: error },
      );
    }
  }
  return entries.length;
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
      await inTurn(async () => ((await minedDespite(provider, error)) ? { ...entry, reverted: true } : null));
      throw error;
    }
    await inTurn(async () => entry);
    return result;
  };
  // Everything but request (event listeners for subscriptions) goes to Hardhat's provider.
  return new Proxy(provider, {
    get: (target, key, receiver) => (key === 'request' ? request : Reflect.get(target, key, receiver)),
  });
}

/**
 * Whether a failed call still mined its transaction (a revert). Hardhat names
 * the transaction on such an error only; the lookup confirms it is in a block.
 * A hash computed from a raw transaction would not do: one sent twice is
 * refused the second time, yet its hash is in a block from the first.
 */
async function minedDespite(provider: Eip1193Provider, error: unknown): Promise<boolean> {
  const hash = (error as { transactionHash?: unknown } | null)?.transactionHash;
  if (typeof hash !== 'string') return false;
  const mined = (await provider.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    blockNumber?: string | null;
  } | null;
  return typeof mined?.blockNumber === 'string';
}

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Eip1193Provider } from './hardhat.ts';

// Hardhat keeps chain state in memory only. To let balances and transfers
// survive a restart, every successful state-changing call is appended to a
// journal and replayed on the next start. Signed transactions replay byte for
// byte, so their hashes (kept in transaction history) stay valid.

const STATE_CHANGING = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
  'hardhat_mine',
  'evm_increaseTime',
  'evm_setNextBlockTimestamp',
  'hardhat_setBalance',
]);

type Entry = { method: string; params: unknown[] };

export async function replayJournal(provider: Eip1193Provider, path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  let replayed = 0;
  for (const line of lines) {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      // A line cut short by a crash is the last one; what came before stands.
      break;
    }
    await provider.request(entry);
    replayed += 1;
  }
  return replayed;
}

export function journaled<P extends Eip1193Provider>(provider: P, path: string): P {
  const request: Eip1193Provider['request'] = async (args) => {
    const result = await provider.request(args);
    if (STATE_CHANGING.has(args.method)) {
      appendFileSync(path, `${JSON.stringify({ method: args.method, params: args.params ?? [] })}\n`);
    }
    return result;
  };
  // Everything but request (event listeners for subscriptions) goes to Hardhat's provider.
  return new Proxy(provider, {
    get: (target, key, receiver) => (key === 'request' ? request : Reflect.get(target, key, receiver)),
  });
}

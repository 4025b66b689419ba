import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Eip1193Provider } from '../../stack/chain/hardhat.ts';
import { journaled, replayJournal } from '../../stack/chain/journal.ts';

// The chain journal keeps Hardhat's in-memory state across restarts. These
// tests drive it with a stand-in node that answers the way Hardhat does: a
// transaction that reverts is still mined (its nonce is spent) and the error
// carries its hash; one refused before mining (nonce too low) carries none.

// A short write is how a full disk tears a line while the stack keeps running.
const shortWrite = vi.hoisted(() => ({ next: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, data: Uint8Array, ...rest: unknown[]) => {
    if (!shortWrite.next) return (fs.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
    shortWrite.next = false;
    return fs.writeSync(fd, data.subarray(0, Math.floor(data.length / 2)));
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

type Call = { method: string; params: unknown[] };

/** Raw transactions are `ok:N`, `revert:N` (mined, then reverted) or `low:N` (refused). */
function fakeNode(options: { lookup?: () => Promise<void> } = {}) {
  const calls: Call[] = [];
  const mined = new Set<string>();
  const provider: Eip1193Provider = {
    async request({ method, params = [] }) {
      if (method === 'eth_getTransactionByHash') {
        await options.lookup?.();
        const hash = String(params[0]);
        return mined.has(hash) ? { hash, blockNumber: '0x1' } : null;
      }
      calls.push({ method, params });
      if (method !== 'eth_sendRawTransaction') return null;
      const [kind, id] = String(params[0]).split(':');
      const hash = `0x${id}`;
      if (kind === 'low') throw new Error('Nonce too low. Expected nonce to be 2 but got 1.');
      mined.add(hash);
      if (kind === 'revert')
        throw Object.assign(new Error('VM Exception while processing transaction: reverted'), {
          transactionHash: hash,
        });
      return hash;
    },
  };
  return { provider, calls };
}

const send = (raw: string) => ({ method: 'eth_sendRawTransaction', params: [raw] });
const log = () => ({ warn: vi.fn<(message: string) => void>(), error: vi.fn<(message: string) => void>() });

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ddex-chain-journal-'));
  path = join(dir, 'journal.jsonl');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a restart would replay: the sends a fresh node receives. */
async function replayed(): Promise<unknown[]> {
  const node = fakeNode();
  await replayJournal(node.provider, path, log());
  return node.calls.map((call) => call.params[0]);
}

describe('chain journal: a line a crash cut short', () => {
  it('is cut off with a warning before anything is appended, so later lines survive', async () => {
    const first = fakeNode();
    const chain = journaled(first.provider, path, log());
    await chain.request(send('ok:1'));
    await chain.request(send('ok:2'));
    appendFileSync(path, '{"method":"eth_sendRawTransaction","par');

    const restart = fakeNode();
    const restartLog = log();
    await replayJournal(restart.provider, path, restartLog);
    expect(restart.calls.map((call) => call.params[0])).toEqual(['ok:1', 'ok:2']);

    await journaled(restart.provider, path, log()).request(send('ok:3'));
    expect(await replayed()).toEqual(['ok:1', 'ok:2', 'ok:3']);
    expect(restartLog.warn).toHaveBeenCalledWith(expect.stringContaining('dropped 39 bytes'));
  });

  it('warns about nothing when the journal ends on a whole line', async () => {
    await journaled(fakeNode().provider, path, log()).request(send('ok:1'));
    const restartLog = log();
    await replayJournal(fakeNode().provider, path, restartLog);
    expect(restartLog.warn).not.toHaveBeenCalled();
  });

  it('refuses an unreadable line before whole ones, rather than drop what follows', async () => {
    writeFileSync(
      path,
      `${JSON.stringify(send('ok:1'))}\n{"method":"eth_se\n${JSON.stringify(send('ok:2'))}\n`,
    );
    await expect(replayJournal(fakeNode().provider, path, log())).rejects.toThrow(/line 2/);
  });

  it('takes back a line the disk only half took, and journals nothing after it', async () => {
    const errors = log();
    const chain = journaled(fakeNode().provider, path, errors);
    await chain.request(send('ok:1'));
    shortWrite.next = true;
    // The transaction was mined: the caller still gets its hash.
    await expect(chain.request(send('ok:2'))).resolves.toBe('0x2');
    await chain.request(send('ok:3'));
    expect(errors.error).toHaveBeenCalledWith(expect.stringContaining('journal'));
    // A whole-line prefix: the start after this replays cleanly, without the gap a later line would leave.
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(send('ok:1'))}\n`);
  });
});

describe('chain journal: reverted transactions', () => {
  it('journals a transaction that reverted but was mined, and replays it expecting the revert', async () => {
    const chain = journaled(fakeNode().provider, path, log());
    await chain.request(send('ok:1'));
    await expect(chain.request(send('revert:2'))).rejects.toThrow('reverted');
    await chain.request(send('ok:3'));

    expect(await replayed()).toEqual(['ok:1', 'revert:2', 'ok:3']);
  });

  it('journals no call that failed before anything was mined', async () => {
    const chain = journaled(fakeNode().provider, path, log());
    await chain.request(send('ok:1'));
    await expect(chain.request(send('low:2'))).rejects.toThrow('Nonce too low');
    await chain.request(send('ok:3'));

    expect(await replayed()).toEqual(['ok:1', 'ok:3']);
  });

  it('keeps the order the node mined in while it checks a failed call', async () => {
    let release: (() => void) | undefined;
    const lookup = () =>
      new Promise<void>((resolve) => {
        release = resolve;
      });
    const chain = journaled(fakeNode({ lookup }).provider, path, log());
    const reverted = chain.request(send('revert:1')).catch((error: unknown) => error);
    const later = chain.request(send('ok:2'));
    // The node has answered both; the reverted one's line waits on its lookup.
    await vi.waitFor(() => expect(release).toBeDefined());
    release?.();
    await Promise.all([reverted, later]);

    expect(await replayed()).toEqual(['revert:1', 'ok:2']);
  });

  it('stops the start when a journalled call fails on replay without being mined', async () => {
    writeFileSync(path, `${JSON.stringify(send('ok:1'))}\n${JSON.stringify(send('low:2'))}\n`);
    await expect(replayJournal(fakeNode().provider, path, log())).rejects.toThrow(/line 2/);
  });
});

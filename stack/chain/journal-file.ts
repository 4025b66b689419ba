import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  truncateSync,
  writeSync,
} from 'node:fs';

// The journal file: one JSON call a line. A line only counts once its newline
// is on disk, so whatever follows the last newline was cut short by a crash.

export type JournalEntry = {
  method: string;
  params: unknown[];
  /** The transaction reverted but was mined: replaying it must revert again, and spend its nonce. */
  reverted?: true;
  /**
   * Unix seconds of the block a transaction was mined in, so its replay is mined at the same time:
   * a swap's deadline and the market's price history depend on it.
   */
  timestamp?: number;
};

export type JournalLog = { warn(message: string): void; error(message: string): void };

const NEWLINE = 0x0a;

/**
 * The journal's entries, after cutting off a line a crash left half-written:
 * the next append must start on a line of its own, or it would be lost with
 * the torn one. Any other unreadable line is refused rather than skipped, as
 * what follows it could not be replayed without it.
 */
export function readJournal(path: string, log: JournalLog): JournalEntry[] {
  if (!existsSync(path)) return [];
  const bytes = readFileSync(path);
  const whole = bytes.lastIndexOf(NEWLINE) + 1;
  if (whole < bytes.length) {
    truncateSync(path, whole);
    log.warn(
      `Chain journal: dropped ${bytes.length - whole} bytes after its last whole line, ` +
        `a line a crash cut short (${path}).`,
    );
  }
  // Entry n is line n: nothing but whole entries is ever written.
  const lines =
    whole === 0
      ? []
      : bytes
          .subarray(0, whole - 1)
          .toString('utf8')
          .split('\n');
  return lines.map((line, index) => {
    const entry = parseEntry(line);
    if (entry) return entry;
    throw new Error(
      `Chain journal line ${index + 1} is unreadable (${path}); the chain cannot be rebuilt past it. ` +
        'Start with --fresh to begin a new chain.',
    );
  });
}

function parseEntry(line: string): JournalEntry | null {
  try {
    const value = JSON.parse(line) as Partial<JournalEntry> | null;
    if (typeof value?.method !== 'string' || !Array.isArray(value.params)) return null;
    const entry: JournalEntry = { method: value.method, params: value.params };
    if (value.reverted === true) entry.reverted = true;
    if (isTimestamp(value.timestamp)) entry.timestamp = value.timestamp;
    return entry;
  } catch {
    return null;
  }
}

export function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Appends each entry as one write of its whole line. A write the disk only
 * half takes (a full disk) is taken back, and the journal stops there: a
 * whole-line prefix replays cleanly, while lines after a missing one would
 * fail on their nonces. No fsync: a crash of the process keeps what the OS
 * was given, only a power loss can tear the last line, and readJournal trims
 * that; a disk flush per transaction would slow every send for that case.
 */
export function journalWriter(path: string, log: JournalLog): (entry: JournalEntry) => void {
  let stopped = false;
  return (entry) => {
    if (stopped) return;
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    let fd: number | undefined;
    let size: number | undefined;
    try {
      fd = openSync(path, 'a');
      size = fstatSync(fd).size;
      const written = writeSync(fd, line);
      if (written !== line.length) throw new Error(`wrote ${written} of ${line.length} bytes`);
    } catch (error) {
      stopped = true;
      if (fd !== undefined && size !== undefined) takeBack(fd, size);
      log.error(
        `Chain journal: could not append to ${path} (${(error as Error).message}); ` +
          'transactions from now on will not survive a restart.',
      );
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
}

function takeBack(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // Then the next start trims the torn line.
  }
}

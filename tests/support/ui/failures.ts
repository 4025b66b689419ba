import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The UI paths that failed, with the first lines of their error. The teardown prints them
// under the coverage table: the end of a long run's output is often all a reader gets,
// and a transition reported as not covered says nothing about why its path broke.

export type PathFailure = { machine: string; title: string; error: string };

const SUFFIX = '.failed';
/** Stack lines kept under the message; the message itself is kept whole, up to MESSAGE_LINES. */
const STACK_LINES = 4;
const MESSAGE_LINES = 40;

/** A failed path's error: its message (which may list what the page was waiting on), then the top of its stack. */
export function describeFailure(text: string): string {
  const lines = text.split('\n');
  const stackAt = lines.findIndex((line) => /^\s+at /.test(line));
  const message = stackAt === -1 ? lines : lines.slice(0, stackAt);
  const stack = stackAt === -1 ? [] : lines.slice(stackAt, stackAt + STACK_LINES);
  return [...message.slice(0, MESSAGE_LINES), ...stack].join('\n');
}

export function writeFailures(dir: string, machine: string, failures: PathFailure[]): void {
  if (failures.length === 0) return;
  mkdirSync(dir, { recursive: true });
  const unique = `${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, `${machine}.${unique}${SUFFIX}`), JSON.stringify(failures));
}

export function readFailures(dir: string): PathFailure[] {
  return readdirSync(dir)
    .filter((entry) => entry.endsWith(SUFFIX))
    .flatMap((entry) => JSON.parse(readFileSync(join(dir, entry), 'utf8')) as PathFailure[]);
}

export function formatFailures(failures: PathFailure[]): string {
  if (failures.length === 0) return '';
  const blocks = failures.map(
    ({ machine, title, error }) =>
      `- ${machine}: ${title}\n${error
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n')}`,
  );
  return `\nUI paths that failed (${failures.length}):\n${blocks.join('\n')}\n`;
}

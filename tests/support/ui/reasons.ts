import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Why a transition (or a state) is not driven through the UI, per machine. Written by each
// UI test file next to its coverage file; the teardown lists the reason under
// the table for every transition the UI paths leave out.

type ReasonsFile = { machine: string; reasons: Record<string, string> };

/** The event type of a transition key `<source> --<event>#<index>--> <targets>`. */
export function eventOfKey(key: string): string {
  return /--(.+)#\d+-->/.exec(key)?.[1] ?? '';
}

export function writeReasons(
  dir: string,
  machine: string,
  items: { transitions: string[]; states: string[] },
  byEvent: Record<string, string>,
  byItem: Record<string, string>,
): void {
  const reasons: Record<string, string> = {};
  for (const key of items.transitions) {
    const reason = byItem[key] ?? byEvent[eventOfKey(key)];
    if (reason) reasons[key] = reason;
  }
  for (const id of items.states) {
    const reason = byItem[id];
    if (reason) reasons[id] = reason;
  }
  const known = new Set([...items.transitions, ...items.states]);
  const unknown = Object.keys(byItem).filter((key) => !known.has(key));
  if (unknown.length > 0)
    throw new Error(`${machine}: reasons name no transition or state of the machine: ${unknown.join('; ')}`);
  mkdirSync(dir, { recursive: true });
  const file: ReasonsFile = { machine, reasons };
  writeFileSync(
    join(dir, `${machine}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.reasons`),
    JSON.stringify(file),
  );
}

/** Reasons per machine, merged over the files of all workers. */
export function readReasons(dir: string): Record<string, Record<string, string>> {
  const merged: Record<string, Record<string, string>> = {};
  for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.reasons'))) {
    const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReasonsFile;
    merged[file.machine] = { ...merged[file.machine], ...file.reasons };
  }
  return merged;
}

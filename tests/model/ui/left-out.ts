import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, inject } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { allStateIds } from '../support/coverage.ts';

// Why a state is left out of a machine's UI paths. describeUiModel takes reasons for transitions
// only, yet the table asks one for every state not covered too; this writes them as one more
// reasons file (the format reasons.ts reads), under a name of its own: writeReasons names its
// files by process and millisecond, so a second file written in the same millisecond would
// replace the runner's.

export function stateReasons(name: string, machine: AnyStateMachine, reasons: Record<string, string>): void {
  const states = allStateIds(machine);
  const unknown = Object.keys(reasons).filter((id) => !states.includes(id));
  if (unknown.length > 0) throw new Error(`${name}: no such state: ${unknown.join(', ')}`);
  afterAll(() => {
    const dir = inject('uiPathsDir');
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const unique = `${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(dir, `${name}.states.${unique}.reasons`), JSON.stringify({ machine: name, reasons }));
  });
}

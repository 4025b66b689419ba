import type { MachineCoverage } from './coverage.ts';

// The coverage table printed at the end of a run of generated paths: the
// model project's (every state and transition, or the run fails) and the
// UI-driven paths' (a goal below 100 %, with a reason for each transition the
// page cannot drive). One summary line comes last, so a CI log ends with it.

export type CoverageOptions = {
  /** The line above the table. */
  heading?: string;
  /** The word of the summary line (`paths: P, states: …`); the UI runner says 'ui paths'. */
  summaryLabel?: string;
  /** The fraction of the states and of the transitions that must be covered (default 1: all). */
  goal?: number;
  /** Machine → transition key or state id → why it is not covered; listed with the item. */
  reasons?: Record<string, Record<string, string>>;
};

export type CoverageVerdict = {
  text: string;
  /**
   * The run may pass: the goal is met and, below a goal of 100 %, every item left out has a
   * reason. With the default goal: every state and transition is covered.
   */
  complete: boolean;
};

export const DEFAULT_HEADING =
  'Model paths (states: every state node but the root; transitions: every declared transition)';

const percent = (fraction: number) => `${Number((fraction * 100).toFixed(1))} %`;
const fractionOf = ({ covered, total }: { covered: number; total: number }) =>
  total === 0 ? 1 : covered / total;

/** The table, the names of anything missing (with its reason when there is one), and the one summary line last. */
export function formatCoverage(rows: MachineCoverage[], options: CoverageOptions = {}): CoverageVerdict {
  const { heading = DEFAULT_HEADING, summaryLabel = 'paths', goal = 1, reasons = {} } = options;
  const header = ['machine', 'paths', 'states', 'transitions'];
  const cells = rows.map((row) => [
    row.machine,
    String(row.paths),
    `${row.states.covered}/${row.states.total}`,
    `${row.transitions.covered}/${row.transitions.total}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const line = (values: string[]) =>
    values
      .map((value, column) =>
        column === 0 ? value.padEnd(widths[column] ?? 0) : value.padStart(widths[column] ?? 0),
      )
      .join('  ');

  const lines = ['', heading, line(header), ...cells.map(line)];
  let unexplained = 0;
  for (const row of rows) {
    const why = reasons[row.machine] ?? {};
    const item = (kind: string, name: string) => {
      const reason = why[name];
      if (reason === undefined) unexplained += 1;
      return reason === undefined
        ? `  ${row.machine}: missing ${kind} ${name}`
        : `  ${row.machine}: not covered ${kind} ${name} — ${reason}`;
    };
    for (const id of row.states.missing) lines.push(item('state', id));
    for (const key of row.transitions.missing) lines.push(item('transition', key));
  }

  const sum = (pick: (row: MachineCoverage) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const states = { covered: sum((r) => r.states.covered), total: sum((r) => r.states.total) };
  const transitions = { covered: sum((r) => r.transitions.covered), total: sum((r) => r.transitions.total) };
  const everything = states.covered === states.total && transitions.covered === transitions.total;
  const meetsGoal = fractionOf(states) >= goal && fractionOf(transitions) >= goal;
  const complete = goal >= 1 ? everything : meetsGoal && unexplained === 0;

  if (goal >= 1) {
    if (!everything)
      lines.push('FAILED: the generated paths do not cover every state and transition (listed above).');
  } else {
    lines.push(
      `goal: ${percent(goal)} of the states and of the transitions; covered: ${percent(fractionOf(states))} of the states, ${percent(fractionOf(transitions))} of the transitions`,
    );
    if (!meetsGoal) lines.push(`FAILED: the ${summaryLabel} cover less than the goal.`);
    if (unexplained > 0)
      lines.push(`FAILED: ${unexplained} item(s) not covered have no reason (listed above as missing).`);
  }
  lines.push(
    `${summaryLabel}: ${sum((r) => r.paths)}, states: ${states.covered}/${states.total}, transitions: ${transitions.covered}/${transitions.total}`,
  );
  return { text: lines.join('\n') + '\n', complete };
}

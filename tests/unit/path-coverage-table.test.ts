import { describe, expect, it } from 'vitest';
import type { MachineCoverage } from '../support/model/coverage.ts';
import { DEFAULT_HEADING, formatCoverage } from '../support/model/table.ts';

// The coverage table of generated paths, as the model project prints it (every
// state and transition or the run fails) and as the UI-driven paths print it
// (a goal, a label of their own, and a reason for each item left out).

function row(
  machine: string,
  states: [string[], string[]],
  transitions: [string[], string[]],
): MachineCoverage {
  const measure = ([total, covered]: [string[], string[]]) => ({
    covered: covered.length,
    total: total.length,
    missing: total.filter((item) => !covered.includes(item)),
  });
  return { machine, paths: 2, states: measure(states), transitions: measure(transitions) };
}

const GO = 'lamp.off --lamp.toggle#0--> lamp.on';
const BACK = 'lamp.on --lamp.toggle#0--> lamp.off';
const BREAK = 'lamp.off --lamp.break#0--> lamp.broken';
const STATES = ['lamp.off', 'lamp.on', 'lamp.broken'];

const full = row(
  'lamp',
  [STATES, STATES],
  [
    [GO, BACK, BREAK],
    [GO, BACK, BREAK],
  ],
);
const partial = row(
  'lamp',
  [STATES, ['lamp.off', 'lamp.on']],
  [
    [GO, BACK, BREAK],
    [GO, BACK],
  ],
);
const lines = (text: string) => text.trimEnd().split('\n');

describe('formatCoverage with its defaults (the model project)', () => {
  it('prints the heading, the table and the summary line last, and passes at 100 %', () => {
    const { text, complete } = formatCoverage([full]);
    expect(lines(text)[1]).toBe(DEFAULT_HEADING);
    expect(lines(text)[2]).toMatch(/^machine\s+paths\s+states\s+transitions$/);
    expect(lines(text)[3]).toMatch(/^lamp\s+2\s+3\/3\s+3\/3$/);
    expect(lines(text).at(-1)).toBe('paths: 2, states: 3/3, transitions: 3/3');
    expect(complete).toBe(true);
  });

  it('names each missing item and fails below 100 %', () => {
    const { text, complete } = formatCoverage([partial]);
    expect(lines(text)).toEqual(
      expect.arrayContaining([
        '  lamp: missing state lamp.broken',
        `  lamp: missing transition ${BREAK}`,
        'FAILED: the generated paths do not cover every state and transition (listed above).',
      ]),
    );
    expect(lines(text).at(-1)).toBe('paths: 2, states: 2/3, transitions: 2/3');
    expect(complete).toBe(false);
  });

  it('still fails at the default goal when the missing items have reasons, and shows them', () => {
    const reasons = { lamp: { [BREAK]: 'the page has no hammer', 'lamp.broken': 'after a break only' } };
    const { text, complete } = formatCoverage([partial], { reasons });
    expect(lines(text)).toContain(`  lamp: not covered transition ${BREAK} — the page has no hammer`);
    expect(lines(text)).toContain('  lamp: not covered state lamp.broken — after a break only');
    expect(complete).toBe(false);
  });
});

describe('formatCoverage for another runner (heading, label, goal, reasons)', () => {
  const reasons = { lamp: { [BREAK]: 'the page has no hammer', 'lamp.broken': 'after a break only' } };

  it('uses the heading and the label given, the label on the summary line', () => {
    const { text } = formatCoverage([full], { heading: 'UI paths', summaryLabel: 'ui paths' });
    expect(lines(text)[1]).toBe('UI paths');
    expect(lines(text).at(-1)).toBe('ui paths: 2, states: 3/3, transitions: 3/3');
  });

  it('passes below 100 % when the goal is met and every item left out has a reason', () => {
    const { text, complete } = formatCoverage([partial], {
      goal: 0.6,
      reasons,
      summaryLabel: 'ui paths',
    });
    expect(complete).toBe(true);
    expect(text).not.toContain('FAILED');
    expect(lines(text)).toContain(`  lamp: not covered transition ${BREAK} — the page has no hammer`);
    expect(lines(text).at(-1)).toBe('ui paths: 2, states: 2/3, transitions: 2/3');
  });

  it('fails when an item left out has no reason, even above the goal', () => {
    const { text, complete } = formatCoverage([partial], {
      goal: 0.6,
      reasons: { lamp: { [BREAK]: 'no hammer' } },
    });
    expect(complete).toBe(false);
    expect(lines(text)).toContain('  lamp: missing state lamp.broken');
    expect(text).toMatch(/^FAILED: 1 item\(s\) not covered have no reason/m);
  });

  it('fails below the goal, reasons or not', () => {
    const { text, complete } = formatCoverage([partial], { goal: 0.9, reasons });
    expect(complete).toBe(false);
    expect(text).toMatch(/^FAILED: the paths cover less than the goal\.$/m);
    expect(lines(text).at(-1)).toBe('paths: 2, states: 2/3, transitions: 2/3');
  });
});

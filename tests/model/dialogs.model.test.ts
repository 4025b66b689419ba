import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { dialogs, dialogsMachine, type DialogsFact } from '../../src/machines/dialogs.machine.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';

// Which dialog is open, and the user menu (docs/product.md#menu-and-dialogs): the generated paths,
// each step checked for what is open and what the root heard. Opening a dialog closes the menu and
// reports it; replacing or closing one reports the one that closed, so the root can drop what
// belonged to it.

type Snapshot = SnapshotFrom<typeof dialogsMachine>;

function everyStep(s: Snapshot, { before, facts }: ModelStep<typeof dialogsMachine>) {
  const reported = facts as DialogsFact[];
  const { open, menuOpen } = s.context;
  const was = before?.context.open ?? null;
  const expected: DialogsFact[] = [];
  if (s.matches('open')) {
    expect(dialogs).toContain(open);
  } else {
    expect(open).toBeNull();
  }
  // A dialog that was open and is no longer (or was replaced) is reported closed, then the new one opened.
  const opened = reported.some((fact) => fact.type === 'dialogs.opened');
  if (was !== null && (open !== was || opened)) expected.push({ type: 'dialogs.closed', dialog: was });
  if (open !== null && (open !== was || opened)) expected.push({ type: 'dialogs.opened', dialog: open });
  expect(reported).toEqual(expected);
  // Opening a dialog from the menu closes the menu.
  if (opened) expect(menuOpen).toBe(false);
}

describeModel({
  name: 'dialogs',
  machine: dialogsMachine,
  events: {
    'dialogs.open': [
      ...dialogs.map((dialog) => ({ type: 'dialogs.open', dialog })),
      { type: 'dialogs.open', dialog: 'about' },
    ],
    'menu.setOpen': [
      { type: 'menu.setOpen', open: true },
      { type: 'menu.setOpen', open: false },
    ],
  },
  // Every order of opening, replacing and closing, with the menu open or shut.
  simplePaths: true,
  maxPaths: 30,
  states: { '*': everyStep },
});

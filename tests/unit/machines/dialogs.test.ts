import { describe, expect, it } from 'vitest';
import { dialogsMachine } from '../../../src/machines/dialogs.machine.ts';
import type { DialogsFact } from '../../../src/machines/dialogs.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// One dialog at a time, the user menu's open state, and the facts the root
// routes (notifications marked read, history loaded, profile edits dropped).
const start = () => {
  const h = machineHarness(dialogsMachine);
  return { dialogs: h.actor, reports: h.facts as DialogsFact[] };
};

describe('dialogs', () => {
  it('opens one dialog from the menu, closing the menu, and reports it', () => {
    const { dialogs, reports } = start();
    dialogs.send({ type: 'menu.setOpen', open: true });
    expect(dialogs.getSnapshot().context.menuOpen).toBe(true);
    dialogs.send({ type: 'dialogs.open', dialog: 'notifications' });
    expect(dialogs.getSnapshot().context).toEqual({ open: 'notifications', menuOpen: false });
    expect(reports).toEqual([{ type: 'dialogs.opened', dialog: 'notifications' }]);
  });

  it('replaces an open dialog, reporting the one it closed', () => {
    const { dialogs, reports } = start();
    dialogs.send({ type: 'dialogs.open', dialog: 'profile' });
    dialogs.send({ type: 'dialogs.open', dialog: 'transactions' });
    expect(dialogs.getSnapshot().context.open).toBe('transactions');
    expect(reports).toEqual([
      { type: 'dialogs.opened', dialog: 'profile' },
      { type: 'dialogs.closed', dialog: 'profile' },
      { type: 'dialogs.opened', dialog: 'transactions' },
    ]);
  });

  it('closes on request and when the session ends', () => {
    const { dialogs, reports } = start();
    dialogs.send({ type: 'dialogs.open', dialog: 'profile' });
    dialogs.send({ type: 'dialogs.close' });
    dialogs.send({ type: 'dialogs.open', dialog: 'security' });
    dialogs.send({ type: 'session.ended' });
    expect(dialogs.getSnapshot().value).toBe('closed');
    expect(dialogs.getSnapshot().context.open).toBeNull();
    expect(reports.filter((r) => r.type === 'dialogs.closed')).toEqual([
      { type: 'dialogs.closed', dialog: 'profile' },
      { type: 'dialogs.closed', dialog: 'security' },
    ]);
  });

  it('closes the user menu when the session ends, with or without a dialog open', () => {
    const { dialogs } = start();
    dialogs.send({ type: 'menu.setOpen', open: true });
    dialogs.send({ type: 'session.ended' });
    expect(dialogs.getSnapshot().context.menuOpen).toBe(false);
    dialogs.send({ type: 'dialogs.open', dialog: 'profile' });
    dialogs.send({ type: 'menu.setOpen', open: true });
    dialogs.send({ type: 'session.ended' });
    expect(dialogs.getSnapshot().context).toEqual({ open: null, menuOpen: false });
  });

  it('ignores a dialog it does not know and a close with nothing open', () => {
    const { dialogs, reports } = start();
    dialogs.send({ type: 'dialogs.open', dialog: 'about' as never });
    dialogs.send({ type: 'dialogs.close' });
    expect(dialogs.getSnapshot().value).toBe('closed');
    expect(reports).toEqual([]);
  });
});

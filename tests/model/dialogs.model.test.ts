import { expect } from 'vitest';
import { dialogs, dialogsMachine } from '../../src/machines/dialogs.machine.ts';
import { describeModel } from './support/index.ts';

describeModel({
  name: 'dialogs',
  machine: dialogsMachine,
  provide: { actions: { report: () => undefined } },
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
  states: {
    open: (snapshot) => expect(dialogs).toContain(snapshot.context.open),
    closed: (snapshot) => expect(snapshot.context.open).toBeNull(),
  },
});

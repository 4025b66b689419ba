import { expect } from 'vitest';
import { tabMachine, tabs } from '../../src/machines/tab.machine.ts';
import { describeModel } from './support/index.ts';

describeModel({
  name: 'tab',
  machine: tabMachine,
  events: {
    'tab.select': [
      ...tabs.map((tab) => ({ type: 'tab.select', tab })),
      { type: 'tab.select', tab: 'wallets' },
    ],
  },
  states: {
    notFound: (snapshot) => expect(snapshot.context.requested).toBe('wallets'),
  },
});

import { expect } from 'vitest';
import { tabMachine, tabs } from '../../src/machines/tab.machine.ts';
import { describeModel } from '../support/model/index.ts';

// Which page is shown (docs/product.md#tabs-and-pages): after every step, the page asked for last
// when it is a tab, else 'Page not found.' with the value kept as it was asked for.

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
    '*': (snapshot) => {
      const { requested } = snapshot.context;
      expect(snapshot.value).toBe((tabs as readonly string[]).includes(requested) ? requested : 'notFound');
    },
    notFound: (snapshot) => expect(snapshot.context.requested).toBe('wallets'),
  },
});

import { assign, setup } from 'xstate';
import { reportFact } from './shared.ts';

// Which page the one-page portal shows (docs/product.md#tabs-and-pages: no URL routes, tabs held in
// state). The tab bar and the user menu's shortcuts send the same event; any
// value that is no tab shows 'Page not found.' (appCopy.pageNotFound).

export const tabs = ['portal', 'trading', 'bots', 'faq', 'privacy', 'terms'] as const;
export type Tab = (typeof tabs)[number];

export type TabEvent = { type: 'tab.select'; tab: string };

/** The fact this machine reports to the root: which tab is shown now (null: the not-found page). */
export type TabFact = { type: 'tab.shown'; tab: Tab | null };
export type TabContext = {
  /** The value last asked for, kept as given (also when it is no tab), for the not-found page. */
  requested: string;
};

export function isTab(value: string): value is Tab {
  return (tabs as readonly string[]).includes(value);
}

export const tabMachine = setup({
  types: {} as { context: TabContext; events: TabEvent },
  actions: {
    remember: assign({ requested: ({ event }) => event.tab }),
    report: reportFact<TabFact>(),
  },
  guards: {
    requests: ({ event }, params: { tab: Tab }) => event.tab === params.tab,
  },
}).createMachine({
  id: 'tab',
  context: { requested: 'portal' },
  initial: 'portal',
  states: {
    portal: {},
    trading: {},
    bots: {},
    faq: {},
    privacy: {},
    terms: {},
    notFound: {},
  },
  on: {
    'tab.select': [
      ...tabs.map((tab) => ({
        guard: { type: 'requests' as const, params: { tab } },
        target: `.${tab}`,
        actions: ['remember', { type: 'report', params: { type: 'tab.shown', tab } }] as const,
      })),
      {
        target: '.notFound',
        actions: ['remember', { type: 'report', params: { type: 'tab.shown', tab: null } }],
      },
    ],
  },
});

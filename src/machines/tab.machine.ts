import { assign, setup } from 'xstate';

// Which page the one-page portal shows (docs/product.md#tabs-and-pages: no URL routes, tabs held in
// state). The tab bar and the user menu's shortcuts send the same event; any
// value that is no tab shows 'Page not found.' (appCopy.pageNotFound).

export const tabs = ['portal', 'trading', 'bots', 'faq', 'privacy', 'terms'] as const;
export type Tab = (typeof tabs)[number];

export type TabEvent = { type: 'tab.select'; tab: string };
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
        actions: 'remember' as const,
      })),
      { target: '.notFound', actions: 'remember' },
    ],
  },
});

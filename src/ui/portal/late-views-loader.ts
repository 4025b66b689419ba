import type * as LateViews from './late-views.ts';

// The views a visitor's first screen never shows are a chunk of their own rather than part of the
// entry JavaScript (docs/architecture.md#what-loads-when): the send form, which shows only with a
// wallet connected, and the balances, which show only in the wallet panel, that is once a wallet
// or a session is known (both come from services loaded after the first paint). The composition
// root asks for it once the page has loaded, so a wallet that reconnects at start finds it there;
// the first ask starts the one download, later asks share it.

let loading: Promise<typeof LateViews> | null = null;

export function loadLateViews(): Promise<typeof LateViews> {
  loading ??= import('./late-views.ts');
  return loading;
}

/** One of the late views, as React.lazy takes it. */
export const lateView =
  <Name extends keyof typeof LateViews>(name: Name) =>
  () =>
    loadLateViews().then((views) => ({ default: views[name] }));

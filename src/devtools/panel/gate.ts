// The query flags that turn the developer tools on, read by the composition root before anything
// of them loads: so this file is all of them a visitor downloads.
//
// Who gets the developer panel: every development build, and a production build only when asked
// with the `?devtools` query flag (exactly that name; `?devtools=0` / `=false` do not count).
// Without it nothing of the panel is rendered or downloaded: App mounts the lazy panel only when
// this is true. `?inspect` streams the portal to Stately's inspector (src/devtools/inspector.ts).

/** True when the query string has `name` (`?name`, `?name=1`, `?name=true`); `name=0` / `name=false` turn it off. */
export function queryFlag(search: string, name: string): boolean {
  const params = new URLSearchParams(search);
  if (!params.has(name)) return false;
  const value = (params.get(name) ?? '').trim().toLowerCase();
  return value !== '0' && value !== 'false';
}

export function devtoolsEnabled(search: string, developmentBuild: boolean): boolean {
  return developmentBuild || queryFlag(search, 'devtools');
}

export function inspectRequested(search: string): boolean {
  return queryFlag(search, 'inspect');
}

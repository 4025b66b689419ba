// Who gets the developer panel: every development build, and a production
// build only when asked with the `?devtools` query flag (exactly that name;
// `?devtools=0` / `=false` do not count). Without it nothing of the panel is
// rendered or downloaded: App mounts the lazy panel only when this is true.

export function devtoolsEnabled(search: string, developmentBuild: boolean): boolean {
  if (developmentBuild) return true;
  const params = new URLSearchParams(search);
  if (!params.has('devtools')) return false;
  const value = (params.get('devtools') ?? '').trim().toLowerCase();
  return value !== '0' && value !== 'false';
}

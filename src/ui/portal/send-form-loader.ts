import type { SendForm } from './SendForm.tsx';

// The send form shows only with a wallet connected, never on a visitor's first screen, so its code
// is a chunk of its own rather than part of the entry JavaScript (docs/architecture.md#what-loads-when).
// The composition root asks for it once the page has loaded, so a wallet that reconnects at start
// finds it there; the first ask starts the one download, later asks share it.

let loading: Promise<{ default: typeof SendForm }> | null = null;

export function loadSendForm(): Promise<{ default: typeof SendForm }> {
  loading ??= import('./SendForm.tsx').then((module) => ({ default: module.SendForm }));
  return loading;
}

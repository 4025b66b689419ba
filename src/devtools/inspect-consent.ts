// What a production build asks before `?inspect` streams anything to the online inspector: what
// leaves the page, where it goes, and what is taken out first (redact.ts). A module of its own,
// imported only when the flag is present, so no visitor downloads it.

export const inspectConsent =
  "This link asks to stream this page's state to Stately's online inspector at stately.ai: your " +
  'wallet address, balances, profile, notifications and everything you do here, as the portal ' +
  'holds them. Passwords, private keys, signatures and session tokens are removed first. Share it?';

/** Asks the person once, with the browser's `confirm`, and says what they answered. */
export function askToInspect(confirm: (question: string) => boolean): boolean {
  return confirm(inspectConsent);
}

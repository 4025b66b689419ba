// ours: the words of the local build's stand-in for hCaptcha's widget (src/ui/portal/faucet/
// LocalHumanCheck.tsx), apart from src/copy/faucet.ts so that only a build for the local chain holds
// them (tests/unit/faucet-bundle.test.ts).

export const localHumanCheckCopy = {
  /** A box to tick, which passes the check. */
  label: 'I am human',
  note: 'Local stand-in for hCaptcha: ticking it passes the test check of the local stack.',
} as const;

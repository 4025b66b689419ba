// The local test wallet's names: what it announces itself as (EIP-6963) and where its key is kept.
// Apart from the code that uses them, so that the build's check can look for them
// (scripts/lib/local-wallet-marks.ts) without the browser's types.

export const LOCAL_WALLET_INFO = {
  name: 'Local test wallet',
  rdns: 'io.ddex.local-test-wallet',
  // A plain key on a square, drawn inline: the wallet loads nothing from anywhere.
  icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="6" fill="%23334155"/%3E%3Ccircle cx="12" cy="16" r="5" fill="none" stroke="%23fff" stroke-width="2.5"/%3E%3Cpath d="M17 16h10M23 16v4" stroke="%23fff" stroke-width="2.5"/%3E%3C/svg%3E',
} as const;

export const LOCAL_WALLET_KEY = 'ddex.localTestWallet.key';

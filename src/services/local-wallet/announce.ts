import type { LocalWalletProvider } from './provider.ts';

// The local test wallet announces itself as an EIP-6963 wallet, as an extension does, so the
// portal's wallet service finds it the way it finds MetaMask: once now, and again whenever a page
// asks (`eip6963:requestProvider`).

export const LOCAL_WALLET_INFO = {
  name: 'Local test wallet',
  rdns: 'io.ddex.local-test-wallet',
  // A plain key on a square, drawn inline: the wallet loads nothing from anywhere.
  icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="6" fill="%23334155"/%3E%3Ccircle cx="12" cy="16" r="5" fill="none" stroke="%23fff" stroke-width="2.5"/%3E%3Cpath d="M17 16h10M23 16v4" stroke="%23fff" stroke-width="2.5"/%3E%3C/svg%3E',
} as const;

export type AnnounceTarget = Pick<Window, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'>;

/** Announces `provider` now and on every request; the returned function stops answering. */
export function announceLocalWallet(
  target: AnnounceTarget,
  provider: LocalWalletProvider,
  uuid: string,
): () => void {
  const detail = Object.freeze({ info: Object.freeze({ ...LOCAL_WALLET_INFO, uuid }), provider });
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  target.addEventListener('eip6963:requestProvider', announce);
  announce();
  return () => target.removeEventListener('eip6963:requestProvider', announce);
}

import { LOCAL_WALLET_INFO } from './names.ts';
import type { LocalWalletProvider } from './provider.ts';

// The local test wallet announces itself as an EIP-6963 wallet, as an extension does, so the
// portal's wallet service finds it the way it finds MetaMask: once now, and again whenever a page
// asks (`eip6963:requestProvider`).

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

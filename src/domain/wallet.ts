// What the portal knows of a browser wallet. The wallet service produces these;
// the wallet machine and the views read them.

/** The connected account and the chain the wallet is on. */
export type WalletAccount = { address: string; chainId: number };

export type WalletErrorCode = 'not-installed' | 'rejected' | 'pending' | 'unrecognized-chain' | 'unknown';

/**
 * Every failure of the wallet service: a plain, serialisable object (it may end up in the event
 * journal as an actor's error). `message` is set only for 'unknown': what the wallet or the
 * clipboard said; null when nothing was said. The other codes are worded by the machines.
 */
export type WalletError = { code: WalletErrorCode; message: string | null };

export function isWalletError(value: unknown): value is WalletError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Partial<WalletError>;
  return typeof code === 'string' && (message === null || typeof message === 'string');
}

import type { AuthUser } from '../../domain/auth.ts';
import type { WalletAccount } from '../../domain/wallet.ts';

// The wallet machine's shapes (wallet.machine.ts): its input, context, events, the provider's
// events and the facts it reports. The setup, the states and the toasts build on these.

export type WalletInput = { expectedChain: { id: number; name: string } };

export type { WalletAccount };

/** Events the `providerEvents` callback actor sends back while connected. */
export type WalletProviderEvent =
  | { type: 'provider.accountsChanged'; accounts: string[] }
  | { type: 'provider.chainChanged'; chainId: number }
  | { type: 'provider.disconnected' };

export type WalletEvent =
  | { type: 'wallet.connect' }
  | { type: 'wallet.disconnect' }
  | { type: 'wallet.copy' }
  | { type: 'wallet.switchNetwork' }
  /** Asks the wallet to list DDEX (EIP-747), on the portal's chain only. */
  | { type: 'wallet.watchToken' }
  | { type: 'session.changed'; user: AuthUser | null }
  | WalletProviderEvent;

/** The facts this machine reports to the root (README table). */
export type WalletFact =
  | { type: 'wallet.ready'; address: string | null }
  | { type: 'wallet.connected'; address: string; chainId: number }
  | { type: 'wallet.accountChanged'; address: string; chainId: number | null }
  | { type: 'wallet.disconnected' }
  | { type: 'wallet.chainChanged'; chainId: number; onExpectedChain: boolean };

export type WalletContext = {
  expectedChain: WalletInput['expectedChain'];
  address: string | null;
  chainId: number | null;
  /** Learnt from `session.changed`; decides the 'Login Recommended' hint. */
  signedIn: boolean;
};

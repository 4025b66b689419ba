import type { ActorRefFrom } from 'xstate';
import type { AuthUser } from '../../domain/auth.ts';
import type { WalletAccount } from '../../domain/wallet.ts';
import type { localWalletMachine } from '../local-wallet/local-wallet.machine.ts';

// The wallet machine's shapes (wallet.machine.ts): its input, context, events, the provider's
// events and the facts it reports. The setup, the states and the toasts build on these.

export type WalletInput = {
  expectedChain: { id: number; name: string };
  /** A build for the local chain offers its own test wallet when no extension is there. */
  offersLocalWallet?: boolean;
};

/** The local test wallet's chart: its code loads when a person takes the wallet. */
export type LocalWalletLogic = typeof localWalletMachine;

/** What taking the local test wallet gives: its chart, provided, and its account. */
export type TakenLocalWallet = { logic: LocalWalletLogic; address: string };

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
  /** Takes the local test wallet (the toast's action, the visitor prompt's line). */
  | { type: 'wallet.useLocalWallet' }
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
  offersLocalWallet: boolean;
  /** The local test wallet's actor (system id `localWallet`) once the person took it. */
  localWallet: ActorRefFrom<LocalWalletLogic> | null;
};

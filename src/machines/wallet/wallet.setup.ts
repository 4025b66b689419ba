import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { WalletAccount } from '../../domain/wallet.ts';
import { notProvided, reportFact, showToast, type ToastRequest } from '../shared.ts';
import type {
  TakenLocalWallet,
  WalletContext,
  WalletEvent,
  WalletFact,
  WalletInput,
} from './wallet-types.ts';

// The wallet machine's setup: its actors, actions, guards and delay, which the chart
// (wallet.machine.ts) and its `connected` state (wallet.connected.ts) name.

export const walletSetup = setup({
  types: {} as { context: WalletContext; events: WalletEvent; input: WalletInput },
  actors: {
    /** EIP-6963 discovery with the window.ethereum fallback. */
    discover: fromPromise<{ available: boolean }>(notProvided('discover')),
    /** eth_accounts; null when the user disconnected last time or the wallet grants no account. */
    silentReconnect: fromPromise<WalletAccount | null>(notProvided('silentReconnect')),
    /** eth_requestAccounts; clears the "user disconnected" mark on success. */
    requestAccounts: fromPromise<WalletAccount>(notProvided('requestAccounts')),
    /** wallet_switchEthereumChain, adding the chain on 4902; resolves once the wallet is on it. */
    switchChain: fromPromise<unknown, { chainId: number }>(notProvided('switchChain')),
    copyAddress: fromPromise<unknown, { address: string }>(notProvided('copyAddress')),
    /**
     * Asks the wallet to list DDEX (EIP-747) and resolves with the toast for its answer, failures
     * included; its code and words load on first use (src/app/watch-token.ts), so it rejects only
     * when they cannot be fetched.
     */
    watchToken: fromPromise<ToastRequest>(notProvided('watchToken')),
    /** Marks "user disconnected" so a reload does not reconnect silently. */
    forgetConnection: fromPromise<unknown>(notProvided('forgetConnection')),
    /**
     * Loads the local test wallet (a build for the local chain only), makes or reads its key, pays
     * it gas when it holds no ETH and announces it (EIP-6963), so that the next request finds it.
     */
    takeLocalWallet: fromPromise<TakenLocalWallet>(notProvided('takeLocalWallet')),
    /** Subscribes to accountsChanged / chainChanged / disconnect and sends back WalletProviderEvent. */
    providerEvents: fromCallback(notProvided('providerEvents')),
  },
  actions: {
    showToast,
    report: reportFact<WalletFact>(),
    setAccount: assign((_, params: WalletAccount) => ({ address: params.address, chainId: params.chainId })),
    setChain: assign((_, params: { chainId: number }) => ({ chainId: params.chainId })),
    clearAccount: assign({ address: null, chainId: null }),
  },
  guards: {
    signedIn: ({ context }) => context.signedIn,
    onExpectedChain: ({ context }) => context.chainId === context.expectedChain.id,
    offersLocalWallet: ({ context }) => context.offersLocalWallet,
  },
  delays: { loginHintDelay: 5000 },
});

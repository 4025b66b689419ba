import type { Address, Hex } from 'viem';
import type { WalletAsset, WalletError, WalletErrorCode, WatchTokenOutcome } from '../../domain/wallet.ts';

export type { WalletAsset, WalletError, WalletErrorCode, WatchTokenOutcome };

// The wallet contract the wallet machine's actors are built from. Free of viem
// code (types only), so machines and views may import it with `import type`.

/** The minimal EIP-1193 provider: what an extension injects or announces. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** EIP-6963 provider info, as announced. */
export type WalletInfo = { uuid: string; name: string; icon: string; rdns: string };

/**
 * The slice of `window` the service uses; the real `window` fits as it is, tests pass an
 * `EventTarget` with an in-memory storage and a fake clipboard.
 */
export interface WalletWindow {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
  /** The legacy injection point, used when no wallet announces itself through EIP-6963. */
  ethereum?: unknown;
  /** Holds the "user disconnected" flag across reloads. */
  localStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  navigator?: { clipboard?: { writeText(text: string): Promise<void> } | undefined } | undefined;
}

/** The chain the portal is built for; added to the wallet when it does not know it (4902). */
export type WalletChain = {
  id: number;
  name: string;
  rpcUrl: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  blockExplorerUrl?: string;
};

export type WalletServiceConfig = {
  window: WalletWindow;
  chain: WalletChain;
  /** How long discover() waits for an EIP-6963 announcement when none came at once (default 500 ms). */
  discoveryTimeoutMs?: number;
};

export type WalletConnection = {
  /** The selected account, checksummed. */
  address: Address;
  chainId: number;
};

/**
 * A contract call for the wallet to send; the wallet fills gas and fees. `value` is the ETH sent
 * with it, in wei (a swap of ETH for DDEX); none when absent.
 */
export type WalletTransaction = { from: string; to: string; data: Hex; value?: bigint };

export type WalletDiscovery = {
  available: boolean;
  /** The chosen wallet's EIP-6963 info; null when none announced (window.ethereum or nothing). */
  info: WalletInfo | null;
};

export type WalletEventHandlers = {
  /** Checksummed accounts, selected first; empty when the wallet no longer grants this site any. */
  accountsChanged?(accounts: Address[]): void;
  chainChanged?(chainId: number): void;
  disconnect?(): void;
};

export interface WalletService {
  /** The configured chain, for "wrong network" checks and the switch. */
  readonly chain: WalletChain;
  /**
   * Asks EIP-6963 wallets to announce themselves and waits for the first one (up to the
   * discovery timeout unless one answers at once); `available` also counts `window.ethereum`.
   */
  discover(): Promise<WalletDiscovery>;
  /**
   * The connection the wallet still grants without a prompt (eth_accounts), or null: when the user
   * disconnected last time, when there is no wallet, no account, or the wallet cannot tell.
   * Never rejects.
   */
  silentReconnect(): Promise<WalletConnection | null>;
  /**
   * Prompts for accounts (eth_requestAccounts) and reads the chain; clears the "user disconnected"
   * flag. Rejects with a WalletError; with 'pending', without asking the wallet, while another
   * prompt of this service is open.
   */
  requestAccounts(): Promise<WalletConnection>;
  /**
   * Asks the wallet to switch chains; on 4902 adds the configured chain (only that one is known
   * here) and switches to it. Counts as a prompt for the one-at-a-time rule.
   */
  switchChain(chainId: number): Promise<void>;
  /**
   * Asks the wallet to sign `message` with `address` (EIP-1193 personal_sign, the message sent as
   * hex-encoded UTF-8) and resolves with the signature. Counts as a prompt for the one-at-a-time rule
   * and fails as requestAccounts does: 'rejected' when the user declines (4001), 'pending', …
   */
  signMessage(address: string, message: string): Promise<Hex>;
  /**
   * Asks the wallet to sign and broadcast a transaction from `address` (EIP-1193
   * eth_sendTransaction; the wallet shows it, estimates gas and sets the fees) and resolves with its
   * hash. Refused with 'wrong-chain', without asking, when the wallet is not on the configured
   * chain. A prompt, failing as signMessage does: 'rejected' when the user declines (4001), ...
   */
  sendTransaction(transaction: WalletTransaction): Promise<Hex>;
  /**
   * Asks the wallet to list an ERC-20 token (EIP-747 wallet_watchAsset: `{ type: 'ERC20', options:
   * { address, symbol, decimals } }`) and resolves with its answer: 'added' (true), 'declined' (false,
   * or the user refused the prompt: 4001) or 'unsupported' (no such method: -32601, or 4200). Wallets
   * list a token on the chain they are on, so one on another chain than the configured one is refused
   * with 'wrong-chain', without asking. A prompt, failing otherwise as signMessage does: 'pending',
   * 'invalid-answer' (not a boolean), 'unknown' with the wallet's words, ...
   */
  watchToken(asset: WalletAsset): Promise<WatchTokenOutcome>;
  /** Follows the chosen wallet's events; the returned function unsubscribes. */
  watch(handlers: WalletEventHandlers): () => void;
  /** Writes the address to the clipboard; rejects with a WalletError ('unknown') when it cannot. */
  copyAddress(address: string): Promise<void>;
  /**
   * Remembers that the user disconnected, so silentReconnect stays away next time, and asks the
   * wallet to drop this site's permission where it supports wallet_revokePermissions. Never rejects.
   */
  forgetConnection(): Promise<void>;
}

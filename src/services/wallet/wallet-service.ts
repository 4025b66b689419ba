import type { Address, Hex } from 'viem';
import { isAddress, isWalletError as isWalletErrorShape } from '../../domain/wallet.ts';
import { checksumAddress } from './address.ts';
import type {
  Eip1193Provider,
  WalletChain,
  WalletConnection,
  WalletError,
  WalletErrorCode,
  WalletInfo,
  WalletService,
  WalletServiceConfig,
  WalletWindow,
  WatchTokenOutcome,
} from './types.ts';

/** Set when the user disconnected, so a reload does not reconnect silently; cleared by a connect. */
export const USER_DISCONNECTED_KEY = 'ddex.wallet.userDisconnected';
/** Preferred when several wallets announce: the catalogue's messages name MetaMask. */
export const PREFERRED_RDNS = 'io.metamask';

const DEFAULT_DISCOVERY_TIMEOUT_MS = 500;
// wallet_revokePermissions never prompts; a wallet that leaves it unanswered must not hold up a disconnect.
const REVOKE_TIMEOUT_MS = 2_000;

const PROVIDER_CODES: ReadonlyMap<number, WalletErrorCode> = new Map([
  [4001, 'rejected'],
  [-32002, 'pending'],
  [4902, 'unrecognized-chain'],
]);
/**
 * wallet_watchAsset's refusals that are answers: the user said no (4001), or the wallet has no such
 * method (-32601, JSON-RPC's method not found; 4200, EIP-1193's unsupported method).
 */
const WATCH_ASSET_ANSWERS: ReadonlyMap<number, WatchTokenOutcome> = new Map([
  [4001, 'declined'],
  [-32601, 'unsupported'],
  [4200, 'unsupported'],
]);
/**
 * A node's refusal of a nonce past the account's next one: Hardhat's and Geth's 'nonce too high',
 * viem's sentence for it. A wallet sends it when it remembers a chain since started afresh.
 */
const NONCE_AHEAD = /nonce too high|nonce provided for the transaction is higher/i;

const walletError = (code: WalletErrorCode, message: string | null = null): WalletError => ({
  code,
  message,
});

/** Already one of ours: passed on as it is (a failure that left out its message is not). */
function isWalletError(value: unknown): value is WalletError {
  return isWalletErrorShape(value) && 'message' in value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * Maps anything a request threw to a WalletError. Wrapped errors keep the wallet's as `cause`
 * (viem's do, should a caller pass one), and MetaMask Mobile wraps 4902 in a -32603 as
 * `data.originalError`, so the whole chain is searched for a known code (and for a node's 'nonce
 * too high', which a wallet passes on in its message or its `data`). For 'unknown' the
 * message is the wallet's own (the innermost error that is not viem's, which are recognised by
 * their `shortMessage`); viem's sentence serves only when the failure started in viem.
 */
export function toWalletError(error: unknown): WalletError {
  if (isWalletError(error)) return error;
  let code: WalletErrorCode | undefined;
  let walletText: string | null | undefined;
  let viemText: string | null = null;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isObject(current); depth += 1) {
    const nested =
      isObject(current.data) && isObject(current.data.originalError) ? current.data.originalError : {};
    for (const candidate of [current.code, nested.code]) {
      if (!code && typeof candidate === 'number') code = PROVIDER_CODES.get(candidate);
    }
    // MetaMask passes the node's refusal on as `data` of its -32603, MetaMask Mobile as originalError.
    const said = [current.message, isObject(current.data) ? current.data.message : null, nested.message];
    if (!code && said.some((text) => typeof text === 'string' && NONCE_AHEAD.test(text)))
      code = 'nonce-ahead';
    if (typeof current.shortMessage === 'string') viemText ??= textOf(current.shortMessage);
    else walletText = textOf(current.message);
    current = current.cause;
  }
  // A known code has its own words (the machines choose them), which say it better than the wallet's.
  if (code) return walletError(code);
  return walletError('unknown', walletText !== undefined ? walletText : (textOf(error) ?? viemText));
}

/** The first EIP-1193 code in an error's chain that `known` names (searched as toWalletError does). */
function knownCode<T>(error: unknown, known: ReadonlyMap<number, T>): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isObject(current); depth += 1) {
    const nested =
      isObject(current.data) && isObject(current.data.originalError) ? current.data.originalError : {};
    for (const candidate of [current.code, nested.code])
      if (typeof candidate === 'number' && known.has(candidate)) return known.get(candidate);
    current = current.cause;
  }
  return undefined;
}

function isProvider(value: unknown): value is Eip1193Provider {
  return isObject(value) && typeof value.request === 'function';
}

function parseInfo(value: unknown): WalletInfo | null {
  if (!isObject(value)) return null;
  const { uuid, name, icon, rdns } = value;
  if (typeof uuid !== 'string' || uuid === '' || typeof name !== 'string' || typeof rdns !== 'string')
    return null;
  return { uuid, name, rdns, icon: typeof icon === 'string' ? icon : '' };
}

/** Accounts as a wallet sends them: null unless every entry is an address. */
function parseAccounts(value: unknown): Address[] | null {
  if (!Array.isArray(value)) return null;
  const accounts: Address[] = [];
  for (const entry of value) {
    if (typeof entry !== 'string' || !isAddress(entry)) return null;
    accounts.push(checksumAddress(entry));
  }
  return accounts;
}

/** EIP-1193 says hex; some wallets send a number or decimal text. Null for anything else. */
function parseChainId(value: unknown): number | null {
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const hexChainId = (id: number): string => `0x${id.toString(16)}`;

/** personal_sign's message parameter: the UTF-8 bytes as hex, which every wallet reads the same. */
const hexUtf8 = (text: string): Hex =>
  `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/** A signature as wallets answer one: 0x and whole bytes of hex (65 for an account, more for a contract). */
function parseSignature(value: unknown): Hex | null {
  return typeof value === 'string' && /^0x(?:[0-9a-fA-F]{2})+$/.test(value) ? (value as Hex) : null;
}

/** A transaction hash as wallets answer one: 0x and 32 bytes of hex. */
function parseHash(value: unknown): Hex | null {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value) ? (value as Hex) : null;
}

/** EIP-3085's parameters for wallet_addEthereumChain. */
type AddEthereumChainParameter = {
  chainId: string;
  chainName: string;
  nativeCurrency: WalletChain['nativeCurrency'];
  rpcUrls: string[];
  blockExplorerUrls?: string[];
};

function addChainParameters(chain: WalletChain): AddEthereumChainParameter {
  return {
    chainId: hexChainId(chain.id),
    chainName: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: [chain.rpcUrl],
    ...(chain.blockExplorerUrl ? { blockExplorerUrls: [chain.blockExplorerUrl] } : {}),
  };
}

function storageOf(window: WalletWindow) {
  // Reading window.localStorage itself throws where storage is blocked (sandboxed frames, some
  // privacy modes); the flag is then simply not kept.
  try {
    return window.localStorage ?? null;
  } catch {
    return null;
  }
}

export function createWalletService(config: WalletServiceConfig): WalletService {
  const { window, chain } = config;
  const discoveryTimeoutMs = config.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS;
  const announced = new Map<string, { info: WalletInfo; provider: Eip1193Provider }>();
  const announceWaiters = new Set<() => void>();
  let prompting = false;

  // Listening from creation, not only during discover(): wallets also announce unasked when they load.
  window.addEventListener('eip6963:announceProvider', (event) => {
    const detail: unknown = (event as CustomEvent<unknown>).detail;
    if (!isObject(detail) || !isProvider(detail.provider)) return;
    const info = parseInfo(detail.info);
    if (!info) return;
    announced.set(info.uuid, { info, provider: detail.provider });
    for (const wake of Array.from(announceWaiters)) wake();
  });
  // As EIP-6963 asks of a page: listen, then request, so wallets that loaded earlier answer too.
  window.dispatchEvent(new Event('eip6963:requestProvider'));

  const legacyProvider = (): Eip1193Provider | null => (isProvider(window.ethereum) ? window.ethereum : null);

  /** The first wallet that announced, MetaMask first when it is among them. */
  function chosenAnnouncement() {
    const all = Array.from(announced.values());
    return all.find((entry) => entry.info.rdns === PREFERRED_RDNS) ?? all[0] ?? null;
  }

  // Chosen per call rather than once: a wallet whose announcement comes late is still found.
  const currentProvider = (): Eip1193Provider | null => chosenAnnouncement()?.provider ?? legacyProvider();

  // Requests go to the provider as they are: never retried (a retried wallet request would be a
  // second prompt), and with no client library in between, which keeps viem's RPC layer out of the
  // first download (the four wallet methods used here need no encoding).
  async function readChainId(provider: Eip1193Provider): Promise<number> {
    const chainId = parseChainId(await provider.request({ method: 'eth_chainId' }));
    if (chainId === null) throw walletError('invalid-answer');
    return chainId;
  }

  function firstAccount(value: unknown): Address {
    const accounts = parseAccounts(value);
    if (!accounts) throw walletError('invalid-answer');
    const [first] = accounts;
    if (!first) throw walletError('no-account');
    return first;
  }

  function setUserDisconnected(disconnected: boolean): void {
    try {
      if (disconnected) storageOf(window)?.setItem(USER_DISCONNECTED_KEY, '1');
      else storageOf(window)?.removeItem(USER_DISCONNECTED_KEY);
    } catch {
      // Storage full or blocked: only the next reload's silent reconnect is affected.
    }
  }

  function userDisconnected(): boolean {
    try {
      return storageOf(window)?.getItem(USER_DISCONNECTED_KEY) === '1';
    } catch {
      return false;
    }
  }

  /** Runs a request that opens a wallet prompt; only one at a time, as MetaMask answers -32002 otherwise. */
  async function prompt<T>(run: (provider: Eip1193Provider) => Promise<T>): Promise<T> {
    const provider = currentProvider();
    if (!provider) throw walletError('not-installed');
    if (prompting) throw walletError('pending');
    prompting = true;
    try {
      return await run(provider);
    } catch (error) {
      throw toWalletError(error);
    } finally {
      prompting = false;
    }
  }

  return {
    chain,

    async discover() {
      window.dispatchEvent(new Event('eip6963:requestProvider'));
      // Wallets already loaded answer synchronously inside dispatchEvent; wait only when none did.
      if (announced.size === 0 && !legacyProvider()) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            announceWaiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, discoveryTimeoutMs);
          announceWaiters.add(done);
        });
      }
      const chosen = chosenAnnouncement();
      return { available: chosen !== null || legacyProvider() !== null, info: chosen?.info ?? null };
    },

    async silentReconnect() {
      if (userDisconnected()) return null;
      const provider = currentProvider();
      if (!provider) return null;
      try {
        const [address] = parseAccounts(await provider.request({ method: 'eth_accounts' })) ?? [];
        if (!address) return null;
        return { address, chainId: await readChainId(provider) } satisfies WalletConnection;
      } catch {
        return null;
      }
    },

    requestAccounts() {
      return prompt(async (provider) => {
        const address = firstAccount(await provider.request({ method: 'eth_requestAccounts' }));
        const chainId = await readChainId(provider);
        setUserDisconnected(false);
        return { address, chainId };
      });
    },

    switchChain(chainId) {
      const switchTo = (provider: Eip1193Provider) =>
        provider.request({
          method: 'wallet_switchEthereumChain',
          params: [{ chainId: hexChainId(chainId) }],
        });
      return prompt(async (provider) => {
        try {
          await switchTo(provider);
        } catch (error) {
          // Only the configured chain's parameters are known here, so only it can be added.
          if (toWalletError(error).code !== 'unrecognized-chain' || chainId !== chain.id) throw error;
          await provider.request({ method: 'wallet_addEthereumChain', params: [addChainParameters(chain)] });
          // MetaMask offers the switch while adding; other wallets only add.
          if ((await readChainId(provider)) !== chainId) await switchTo(provider);
        }
      });
    },

    signMessage(address, message) {
      return prompt(async (provider) => {
        const signature = parseSignature(
          await provider.request({ method: 'personal_sign', params: [hexUtf8(message), address] }),
        );
        if (!signature) throw walletError('invalid-answer');
        return signature;
      });
    },

    sendTransaction({ from, to, data, value = 0n }) {
      if (value < 0n)
        return Promise.reject(walletError('unknown', 'a transaction cannot send a negative value'));
      return prompt(async (provider) => {
        // A wallet on another chain would send the transfer there; the chainId parameter makes
        // wallets that check it (MetaMask) refuse a switch made while the prompt is open.
        if ((await readChainId(provider)) !== chain.id) throw walletError('wrong-chain');
        const hash = parseHash(
          await provider.request({
            method: 'eth_sendTransaction',
            params: [{ from, to, data, value: `0x${value.toString(16)}`, chainId: hexChainId(chain.id) }],
          }),
        );
        if (!hash) throw walletError('invalid-answer');
        return hash;
      });
    },

    watchToken({ address, symbol, decimals }) {
      return prompt(async (provider) => {
        // Wallets list the token on the chain they are on: only the configured one will do.
        if ((await readChainId(provider)) !== chain.id) throw walletError('wrong-chain');
        let added: unknown;
        try {
          added = await provider.request({
            method: 'wallet_watchAsset',
            params: { type: 'ERC20', options: { address, symbol, decimals } },
          });
        } catch (error) {
          const answer = knownCode(error, WATCH_ASSET_ANSWERS);
          if (answer) return answer;
          throw error;
        }
        if (typeof added !== 'boolean') throw walletError('invalid-answer');
        return added ? 'added' : 'declined';
      });
    },

    watch(handlers) {
      const provider = currentProvider();
      const { on, removeListener } = provider ?? {};
      if (!provider || !on) return () => {};
      const onAccounts = (value: unknown) => {
        const accounts = parseAccounts(value);
        if (accounts) handlers.accountsChanged?.(accounts);
      };
      const onChain = (value: unknown) => {
        const chainId = parseChainId(value);
        if (chainId !== null) handlers.chainChanged?.(chainId);
      };
      const onDisconnect = (error: unknown) => {
        // MetaMask sends 1013 while it reconnects to its node; the site is still connected.
        if (isObject(error) && error.code === 1013) return;
        handlers.disconnect?.();
      };
      const subscriptions = [
        ['accountsChanged', onAccounts],
        ['chainChanged', onChain],
        ['disconnect', onDisconnect],
      ] as const;
      for (const [event, listener] of subscriptions) on.call(provider, event, listener);
      return () => {
        for (const [event, listener] of subscriptions) removeListener?.call(provider, event, listener);
      };
    },

    async copyAddress(address) {
      const clipboard = window.navigator?.clipboard;
      if (!clipboard) throw walletError('unknown');
      try {
        await clipboard.writeText(address);
      } catch (error) {
        throw walletError('unknown', toWalletError(error).message);
      }
    },

    async forgetConnection() {
      setUserDisconnected(true);
      const provider = currentProvider();
      if (!provider) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const revoke = Promise.resolve()
        .then(() => provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }))
        // Not every wallet has it (-32601); the flag alone already stops the silent reconnect.
        .catch(() => undefined);
      await Promise.race([
        revoke,
        new Promise((resolve) => (timer = setTimeout(resolve, REVOKE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
    },
  };
}

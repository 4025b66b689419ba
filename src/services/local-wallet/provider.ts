import {
  createPublicClient,
  createWalletClient,
  hexToString,
  http,
  isAddressEqual,
  isHex,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

// The local test wallet: an EIP-1193 provider that holds a key of its own, made in the browser, so
// that every flow of the portal works on the local chain without an extension. It asks the person
// before it connects, signs or sends (`approve`, which the page answers with a dialog showing what
// is signed), signs locally and hands the node the raw transaction; everything else it asks the
// node. A refusal is EIP-1193's 4001, as any wallet's, so every path the portal has for a rejected
// request handles it. It knows the local chain only (another is 4902), and only a build for the
// local chain contains it (src/config/local-wallet-build.ts).

/** What the person is asked to approve: to connect, to sign a message (as text), to send a transaction. */
export type LocalWalletApproval =
  | { kind: 'connect'; origin: 'portal' }
  | { kind: 'sign'; message: string }
  | { kind: 'transaction'; to: Address | null; value: bigint; data: Hex | null };

export type LocalWalletOptions = {
  rpcUrl: string;
  chainId: number;
  privateKey: Hex;
  approve(request: LocalWalletApproval): Promise<boolean>;
  /**
   * Starts connected: the person took this wallet for the portal, which is their consent to
   * connect (signatures and transactions are still asked one by one).
   */
  connected?: boolean;
};

export type LocalWalletProvider = {
  readonly isLocalTestWallet: true;
  readonly address: Address;
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): void;
  removeListener(event: string, listener: (...args: unknown[]) => void): void;
};

/** An EIP-1193 error: a 4001 rejection, 4100 unauthorised, 4200 unsupported, 4902 unknown chain. */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRpcError';
  }
}

const rejected = () => new ProviderRpcError(4001, 'User rejected the request.');

/** The node answers these as they are: reads, and the receipts of what was sent. */
const READS = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getCode',
  'eth_getLogs',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'net_version',
]);

type CallRequest = {
  from?: unknown;
  to?: unknown;
  value?: unknown;
  data?: unknown;
  input?: unknown;
  gas?: unknown;
};

const firstParam = (params: unknown): unknown => (Array.isArray(params) ? params[0] : undefined);

export function createLocalWalletProvider(options: LocalWalletOptions): LocalWalletProvider {
  const account = privateKeyToAccount(options.privateKey);
  const chain = {
    id: options.chainId,
    name: 'Local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  } as const;
  const node = createPublicClient({ chain, transport: http(options.rpcUrl) });
  const signer = createWalletClient({ account, chain, transport: http(options.rpcUrl) });
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  let connected = options.connected ?? false;

  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args);
  };

  const ask = async (request: LocalWalletApproval) => {
    if (!(await options.approve(request))) throw rejected();
  };

  const mustBeConnected = () => {
    if (!connected) throw new ProviderRpcError(4100, 'Connect the local test wallet first.');
  };

  const isOwn = (value: unknown) =>
    typeof value === 'string' &&
    isHex(value) &&
    value.length === 42 &&
    isAddressEqual(value, account.address);

  async function personalSign(params: unknown): Promise<Hex> {
    mustBeConnected();
    const [data, address] = Array.isArray(params) ? params : [];
    if (!isOwn(address))
      throw new ProviderRpcError(4100, 'The local test wallet signs for its own account only.');
    if (typeof data !== 'string' || !isHex(data))
      throw new ProviderRpcError(-32602, 'personal_sign takes hex data.');
    await ask({ kind: 'sign', message: hexToString(data) });
    return account.signMessage({ message: { raw: data } });
  }

  async function sendTransaction(params: unknown): Promise<Hex> {
    mustBeConnected();
    const call = (firstParam(params) ?? {}) as CallRequest;
    if (call.from !== undefined && !isOwn(call.from)) {
      throw new ProviderRpcError(4100, 'The local test wallet sends from its own account only.');
    }
    const to = typeof call.to === 'string' && isHex(call.to) ? (call.to as Address) : null;
    const value = typeof call.value === 'string' && isHex(call.value) ? BigInt(call.value) : 0n;
    const input = call.data ?? call.input;
    const data = typeof input === 'string' && isHex(input) && input !== '0x' ? (input as Hex) : null;
    await ask({ kind: 'transaction', to, value, data });
    // A local account: viem fills nonce, gas and fees from the node, signs here, and sends the raw bytes.
    return signer.sendTransaction({
      to,
      value,
      ...(data ? { data } : {}),
      ...(typeof call.gas === 'string' && isHex(call.gas) ? { gas: BigInt(call.gas) } : {}),
    });
  }

  async function answer(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
        if (!connected) {
          await ask({ kind: 'connect', origin: 'portal' });
          connected = true;
          emit('connect', { chainId: toHex(options.chainId) });
          emit('accountsChanged', [account.address]);
        }
        return [account.address];
      case 'eth_accounts':
        return connected ? [account.address] : [];
      case 'eth_chainId':
        return toHex(options.chainId);
      case 'wallet_switchEthereumChain': {
        const requested = Number((firstParam(params) as { chainId?: unknown } | undefined)?.chainId);
        if (requested !== options.chainId) {
          throw new ProviderRpcError(4902, 'The local test wallet knows the local chain only.');
        }
        return null;
      }
      case 'wallet_revokePermissions':
        connected = false;
        emit('accountsChanged', []);
        return null;
      case 'wallet_watchAsset':
        // The wallet shows no token list of its own: the portal's balances are its view of DDEX.
        return true;
      case 'personal_sign':
        return personalSign(params);
      case 'eth_sendTransaction':
        return sendTransaction(params);
      default:
        if (READS.has(method)) {
          return node.request({ method, params } as never);
        }
        throw new ProviderRpcError(4200, `The local test wallet does not support ${method}.`);
    }
  }

  return {
    isLocalTestWallet: true,
    address: account.address,
    request: ({ method, params }) => answer(method, params),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
    },
  };
}

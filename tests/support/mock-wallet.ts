// A stand-in for a browser-extension wallet (MetaMask cannot run headless): an
// EIP-1193 provider that announces itself through EIP-6963, answers the
// account and chain methods itself and forwards every other request to a
// JSON-RPC node (Hardhat signs for its unlocked accounts).
//
// `installMockWallet` is serialised with `.toString()` and run inside the page
// by Playwright (see `mockWalletInitScript`), so it imports nothing and reads
// nothing from module scope: the types below are erased, the body is
// self-contained, and only syntax a browser runs untranspiled is used.

export type MockWalletOptions = {
  /** JSON-RPC node every method the wallet does not answer itself goes to. */
  rpcUrl: string;
  /** The wallet's accounts; the first one is the selected account. */
  accounts: string[];
  /** The chain the wallet is on at start; also a chain it knows (switchable without adding). */
  chainId: number;
  /** Further chains the wallet knows without wallet_addEthereumChain. */
  knownChainIds?: number[];
  name?: string;
  /** Reverse-DNS id announced through EIP-6963 (MetaMask's is io.metamask). */
  rdns?: string;
  uuid?: string;
  /** Answer eip6963:requestProvider (and announce once at install); default true. */
  announce?: boolean;
  /** Also set target.ethereum, as legacy wallets do; default false. */
  injectWindowEthereum?: boolean;
  /** Start as if the site had been approved before (eth_accounts answers without a prompt); default false. */
  connected?: boolean;
  /**
   * Hold the first request (the portal's silent reconnect at load) until `window.__mockWalletRelease()`
   * is called, so the page can be seen while it waits; default false.
   */
  holdFirst?: boolean;
};

export type MockWalletListener = (...args: unknown[]) => void;

export type MockEip1193Provider = {
  readonly isMockWallet: true;
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: string, listener: MockWalletListener): MockEip1193Provider;
  removeListener(event: string, listener: MockWalletListener): MockEip1193Provider;
};

export type MockWalletControls = {
  provider: MockEip1193Provider;
  /** Method names of every request received, in order (refused ones included). */
  requests: string[];
  /** Method names of every request the wallet has answered or refused, in the order it did. */
  answered: string[];
  /** The parameters of every wallet_watchAsset (EIP-747) received, in order. */
  watchedAssets: unknown[];
  /** The next request of any method fails with this EIP-1193 code (4001: the user rejected it). */
  rejectNext(code?: number, message?: string): void;
  /** The next request of this method fails with this EIP-1193 code; other methods are answered meanwhile. */
  rejectNextOf(method: string, code?: number, message?: string): void;
  /** The next request fails with -32002, as MetaMask answers while its prompt is already open. */
  pendingNext(): void;
  /** The next wallet_switchEthereumChain answers 4902 (unrecognised chain), even for a known chain. */
  failSwitchWith4902Once(): void;
  /**
   * The next eth_sendTransaction goes out with this gas limit, as if the user had edited the gas in
   * the wallet: too little, and the transaction is mined and fails. Hardhat reports such a mined
   * failure as an error carrying `data.txHash`; the mock answers with that hash, as a wallet that
   * broadcast the signed transaction would.
   */
  sendWithGasNext(gas: number): void;
  /**
   * The next eth_sendTransaction goes out with a nonce `ahead` past the chain's, as from a wallet
   * that remembers a chain since started afresh. The node refuses it ('Nonce too high…'), and the
   * mock passes that on as MetaMask does: inside -32603 'Internal JSON-RPC error.', as `data`.
   */
  sendWithNonceAheadNext(ahead: number): void;
  /**
   * How the next wallet_watchAsset is answered instead of `true` (the token added): `false` (declined
   * without an error, as some wallets answer), 4001 (the user refused the prompt) or -32601 (a wallet
   * without the method).
   */
  watchAssetNext(answer: false | 4001 | -32601): void;
  /** The next request waits until the returned function is called, like a prompt left open. */
  holdNext(): () => void;
  /** The next request of this method waits until the returned function is called; others pass. */
  holdNextOf(method: string): () => void;
  /** Replaces the accounts without telling the page. */
  setAccounts(accounts: string[]): void;
  emitAccountsChanged(accounts: string[]): void;
  emitChainChanged(chainId: number): void;
  emitDisconnect(): void;
  /** Calls the page's listeners with arbitrary arguments, as a misbehaving wallet might. */
  emitRaw(event: string, ...args: unknown[]): void;
  /** Whether the site currently holds the eth_accounts permission. */
  isConnected(): boolean;
  /** Number of listeners registered for an event, to check that subscriptions are released. */
  listenerCount(event: string): number;
  /** Stops answering eip6963:requestProvider. */
  uninstall(): void;
};

/** The slice of `window` the mock needs; in Node an `EventTarget` serves. */
export type MockWalletTarget = EventTarget & {
  ethereum?: unknown;
  __mockWallet?: MockWalletControls;
  __mockWalletRelease?: () => void;
};

export function installMockWallet(target: MockWalletTarget, options: MockWalletOptions): MockWalletControls {
  const listeners = new Map<string, Set<MockWalletListener>>();
  const requests: string[] = [];
  const answered: string[] = [];
  const watchedAssets: unknown[] = [];
  const knownChains = new Set<number>([options.chainId, ...(options.knownChainIds ?? [])]);
  let accounts = options.accounts.slice();
  let chainId = options.chainId;
  let connected = options.connected === true;
  let nextFailure: { code: number; message: string } | null = null;
  const nextFailureOf = new Map<string, { code: number; message: string }>();
  let switch4902Once = false;
  let gasNext: number | null = null;
  let nonceAheadNext: number | null = null;
  let watchAssetAnswer: false | 4001 | -32601 | null = null;
  let hold: Promise<void> | null = null;
  const holdOf = new Map<string, Promise<void>>();
  let rpcId = 0;

  const providerError = (code: number, message: string, data?: unknown) =>
    Object.assign(new Error(message), { code, data });
  const toHex = (value: number) => '0x' + value.toString(16);
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of Array.from(listeners.get(event) ?? [])) listener(...args);
  };
  const objectOf = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const firstParam = (params: unknown): Record<string, unknown> => {
    const first: unknown = Array.isArray(params) ? params[0] : undefined;
    return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
  };

  async function forward(method: string, params: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(options.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: params ?? [] }),
      });
    } catch (error) {
      throw providerError(-32603, 'The mock wallet could not reach its node: ' + String(error));
    }
    const body = (await response.json().catch(() => ({
      error: { code: -32603, message: 'The node answered HTTP ' + response.status + ' without JSON.' },
    }))) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw providerError(body.error.code, body.error.message, body.error.data);
    return body.result;
  }

  async function answer(method: string, params: unknown): Promise<unknown> {
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = null;
      throw providerError(failure.code, failure.message);
    }
    const failureOf = nextFailureOf.get(method);
    if (failureOf) {
      nextFailureOf.delete(method);
      throw providerError(failureOf.code, failureOf.message);
    }
    switch (method) {
      case 'eth_requestAccounts':
        connected = true;
        return accounts.slice();
      case 'eth_accounts':
        return connected ? accounts.slice() : [];
      case 'eth_chainId':
        return toHex(chainId);
      case 'net_version':
        return String(chainId);
      case 'wallet_switchEthereumChain': {
        const requested = Number(firstParam(params).chainId);
        if (switch4902Once || !knownChains.has(requested)) {
          switch4902Once = false;
          throw providerError(4902, 'Unrecognized chain ID "' + toHex(requested) + '".');
        }
        if (requested !== chainId) {
          chainId = requested;
          emit('chainChanged', toHex(chainId));
        }
        return null;
      }
      case 'wallet_addEthereumChain': {
        // Like MetaMask: the chain is added; switching to it is a separate request.
        const requested = Number(firstParam(params).chainId);
        if (!Number.isSafeInteger(requested) || requested <= 0)
          throw providerError(-32602, 'Invalid chainId.');
        knownChains.add(requested);
        return null;
      }
      case 'wallet_watchAsset': {
        // EIP-747: one object (not an array) naming an ERC-20 by its address, as MetaMask checks it.
        const asset = objectOf(params);
        if (asset.type !== 'ERC20' || typeof objectOf(asset.options).address !== 'string')
          throw providerError(
            -32602,
            'Invalid parameters: expected { type: "ERC20", options: { address } }.',
          );
        watchedAssets.push(params);
        const answer = watchAssetAnswer;
        watchAssetAnswer = null;
        if (answer === 4001) throw providerError(4001, 'User rejected the request.');
        if (answer === -32601)
          throw providerError(-32601, 'The method "wallet_watchAsset" does not exist / is not available.');
        return answer !== false;
      }
      case 'wallet_revokePermissions':
        connected = false;
        return null;
      case 'eth_sendTransaction': {
        if (nonceAheadNext !== null) {
          const ahead = nonceAheadNext;
          nonceAheadNext = null;
          const call = firstParam(params);
          const used = Number(await forward('eth_getTransactionCount', [call.from, 'pending']));
          try {
            return await forward(method, [{ ...call, nonce: toHex(used + ahead) }]);
          } catch (error) {
            const { code, message } = error as { code?: unknown; message?: unknown };
            throw providerError(-32603, 'Internal JSON-RPC error.', { code, message });
          }
        }
        if (gasNext === null) return forward(method, params);
        const gas = gasNext;
        gasNext = null;
        try {
          return await forward(method, [{ ...firstParam(params), gas: toHex(gas) }]);
        } catch (error) {
          const data = (error as { data?: { txHash?: unknown } }).data;
          if (data && typeof data.txHash === 'string') return data.txHash;
          throw error;
        }
      }
      default:
        return forward(method, params);
    }
  }

  const provider: MockEip1193Provider = {
    isMockWallet: true,
    async request(args) {
      requests.push(args.method);
      const heldOf = holdOf.get(args.method);
      if (heldOf) {
        holdOf.delete(args.method);
        await heldOf;
      } else if (hold) {
        // Only the next request waits for the release.
        const held = hold;
        hold = null;
        await held;
      }
      try {
        return await answer(args.method, args.params);
      } finally {
        answered.push(args.method);
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<MockWalletListener>();
      set.add(listener);
      listeners.set(event, set);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };

  const info = Object.freeze({
    uuid: options.uuid ?? '5d3c1a0e-0000-4000-8000-00000000d0e0',
    name: options.name ?? 'Mock Wallet',
    rdns: options.rdns ?? 'dev.ddex.mockwallet',
    icon:
      'data:image/svg+xml,' +
      encodeURIComponent(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#6b46c1"/></svg>',
      ),
  });
  const announce = () => {
    target.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    );
  };
  if (options.announce !== false) {
    target.addEventListener('eip6963:requestProvider', announce);
    announce();
  }
  if (options.injectWindowEthereum === true) target.ethereum = provider;

  const controls: MockWalletControls = {
    provider,
    requests,
    answered,
    watchedAssets,
    rejectNext(code = 4001, message = 'User rejected the request.') {
      nextFailure = { code, message };
    },
    rejectNextOf(method, code = 4001, message = 'User rejected the request.') {
      nextFailureOf.set(method, { code, message });
    },
    pendingNext() {
      nextFailure = { code: -32002, message: 'Request of type eth_requestAccounts already pending.' };
    },
    failSwitchWith4902Once() {
      switch4902Once = true;
    },
    sendWithGasNext(gas) {
      gasNext = gas;
    },
    sendWithNonceAheadNext(ahead) {
      nonceAheadNext = ahead;
    },
    watchAssetNext(answer) {
      watchAssetAnswer = answer;
    },
    holdNext() {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => release();
    },
    holdNextOf(method) {
      let release = () => {};
      holdOf.set(
        method,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => release();
    },
    setAccounts(next) {
      accounts = next.slice();
    },
    emitAccountsChanged(next) {
      accounts = next.slice();
      emit('accountsChanged', accounts.slice());
    },
    emitChainChanged(next) {
      chainId = next;
      knownChains.add(next);
      emit('chainChanged', toHex(next));
    },
    emitDisconnect() {
      emit('disconnect', providerError(4900, 'The wallet is disconnected from all chains.'));
    },
    emitRaw: emit,
    isConnected: () => connected,
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
    uninstall() {
      target.removeEventListener('eip6963:requestProvider', announce);
    },
  };
  target.__mockWallet = controls;
  if (options.holdFirst) target.__mockWalletRelease = controls.holdNext();
  return controls;
}

/**
 * The script for Playwright's `page.addInitScript({ content })`: installs the mock on `window`.
 * Run through tsx (the benchmarks), the function's source calls esbuild's `__name` helper, which
 * the page does not have; the wrapper gives it one.
 */
export function mockWalletInitScript(options: MockWalletOptions): string {
  return `(() => { const __name = (target) => target; (${installMockWallet.toString()})(window, ${JSON.stringify(options)}); })();`;
}

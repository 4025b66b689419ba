import { runInNewContext } from 'node:vm';
import { getAddress, hexToString, recoverMessageAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it, vi } from 'vitest';
import { walletCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  createWalletService,
  toWalletError,
  USER_DISCONNECTED_KEY,
  type WalletChain,
  type WalletWindow,
} from '../../src/services/wallet/index.ts';
import {
  installMockWallet,
  mockWalletInitScript,
  type MockWalletControls,
  type MockWalletOptions,
  type MockWalletTarget,
} from '../support/mock-wallet.ts';

// The wallet service driven by the mock EIP-6963 wallet, no chain: the mock
// answers account and chain methods itself and nothing here reaches its RPC URL.

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HARDHAT: WalletChain = {
  id: 31337,
  name: 'Hardhat',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
};
const UNUSED_RPC = 'http://127.0.0.1:9/never-called';

type TestWindow = MockWalletTarget & WalletWindow;

function browser(options: { clipboard?: 'ok' | 'refuses' | 'missing' } = {}) {
  const storage = new Map<string, string>();
  const clipboard: string[] = [];
  const window: TestWindow = Object.assign(new EventTarget(), {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
    navigator:
      options.clipboard === 'missing'
        ? {}
        : {
            clipboard: {
              async writeText(text: string) {
                if (options.clipboard === 'refuses')
                  throw new DOMException('Document is not focused.', 'NotAllowedError');
                clipboard.push(text);
              },
            },
          },
  });
  return { window, storage, clipboard };
}

function wallet(window: TestWindow, options: Partial<MockWalletOptions> = {}): MockWalletControls {
  return installMockWallet(window, {
    rpcUrl: UNUSED_RPC,
    accounts: [ALICE, BOB],
    chainId: 31337,
    ...options,
  });
}

function setup(options: Partial<MockWalletOptions> = {}) {
  const env = browser();
  const mock = wallet(env.window, options);
  const service = createWalletService({ window: env.window, chain: HARDHAT, discoveryTimeoutMs: 20 });
  return { ...env, mock, service };
}

async function failure(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('discovery', () => {
  it('finds a wallet that announces itself through EIP-6963 when asked', async () => {
    const { window } = browser();
    // Installed before the service exists: its load-time announcement is missed, the request is not.
    wallet(window, { name: 'Mock Wallet', rdns: 'dev.ddex.mockwallet' });
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 20 });
    const found = await service.discover();
    expect(found.available).toBe(true);
    expect(found.info).toMatchObject({ name: 'Mock Wallet', rdns: 'dev.ddex.mockwallet' });
  });

  it('waits for a wallet that announces late instead of giving up at once', async () => {
    const { window } = browser();
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 60_000 });
    const discovering = service.discover();
    setTimeout(() => wallet(window), 5);
    // With no early wake-up this would wait the full minute and time the test out.
    await expect(discovering).resolves.toMatchObject({ available: true });
  });

  it('reports no wallet after the timeout when nothing announces and there is no window.ethereum', async () => {
    const { window } = browser();
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 10 });
    expect(await service.discover()).toEqual({ available: false, info: null });
    expect(await failure(service.requestAccounts())).toEqual({ code: 'not-installed', message: null });
  });

  it('falls back to window.ethereum for a wallet without EIP-6963', async () => {
    const { window, mock, service } = setup({ announce: false, injectWindowEthereum: true });
    expect(await service.discover()).toEqual({ available: true, info: null });
    await service.requestAccounts();
    expect(mock.requests).toEqual(['eth_requestAccounts', 'eth_chainId']);
    expect(window.ethereum).toBe(mock.provider);
  });

  it('prefers an announced wallet over window.ethereum', async () => {
    const { window } = browser();
    const legacy = wallet(window, { announce: false, injectWindowEthereum: true });
    const announced = wallet(window, { uuid: 'b', name: 'Announced' });
    const service = createWalletService({ window, chain: HARDHAT });
    expect((await service.discover()).info?.name).toBe('Announced');
    await service.requestAccounts();
    expect(announced.requests).toContain('eth_requestAccounts');
    expect(legacy.requests).toEqual([]);
  });

  it('prefers MetaMask (io.metamask) when several wallets announce, else the first', async () => {
    const { window } = browser();
    const other = wallet(window, { uuid: 'a', name: 'Other', rdns: 'com.example.wallet' });
    const metamask = wallet(window, { uuid: 'b', name: 'MetaMask', rdns: 'io.metamask' });
    wallet(window, { uuid: 'c', name: 'Third', rdns: 'com.example.third' });
    const service = createWalletService({ window, chain: HARDHAT });
    expect((await service.discover()).info?.rdns).toBe('io.metamask');
    await service.requestAccounts();
    expect(metamask.requests).toContain('eth_requestAccounts');
    expect(other.requests).toEqual([]);

    const { window: second } = browser();
    const first = wallet(second, { uuid: 'a', name: 'Other', rdns: 'com.example.wallet' });
    wallet(second, { uuid: 'c', name: 'Third', rdns: 'com.example.third' });
    const service2 = createWalletService({ window: second, chain: HARDHAT });
    expect((await service2.discover()).info?.name).toBe('Other');
    await service2.requestAccounts();
    expect(first.requests).toContain('eth_requestAccounts');
  });

  it('ignores announcements without a usable provider or info', async () => {
    const { window } = browser();
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 10 });
    window.addEventListener('eip6963:requestProvider', () => {
      const bad = [
        { info: { uuid: 'x', name: 'No provider', icon: '', rdns: 'x' } },
        { info: { uuid: 'y', name: 'Bad provider', icon: '', rdns: 'y' }, provider: { request: 'nope' } },
        { info: { name: 'No uuid' }, provider: { request: async () => null } },
        null,
      ];
      for (const detail of bad) window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    });
    expect(await service.discover()).toEqual({ available: false, info: null });
  });
});

describe('requestAccounts', () => {
  it('returns the checksummed first account and the chain, and clears the "user disconnected" flag', async () => {
    const { service, storage, mock } = setup();
    storage.set(USER_DISCONNECTED_KEY, '1');
    expect(await service.requestAccounts()).toEqual({ address: getAddress(ALICE), chainId: 31337 });
    expect(storage.has(USER_DISCONNECTED_KEY)).toBe(false);
    expect(mock.isConnected()).toBe(true);
  });

  it.each([
    [4001, 'rejected'],
    [-32002, 'pending'],
  ] as const)('maps the wallet answering %i to %s', async (code, mapped) => {
    const { service, mock, storage } = setup();
    storage.set(USER_DISCONNECTED_KEY, '1');
    mock.rejectNext(code, 'wallet words');
    expect(await failure(service.requestAccounts())).toEqual({ code: mapped, message: null });
    // A failed connect keeps the user's last decision.
    expect(storage.get(USER_DISCONNECTED_KEY)).toBe('1');
  });

  it('maps the prompt already open (pendingNext) to pending', async () => {
    const { service, mock } = setup();
    mock.pendingNext();
    expect(await failure(service.requestAccounts())).toEqual({ code: 'pending', message: null });
  });

  it("passes any other failure on as unknown with the wallet's own message, not viem's", async () => {
    const { service, mock } = setup();
    mock.rejectNext(-32603, 'Internal JSON-RPC error.');
    const said = await failure(service.requestAccounts());
    expect(said).toEqual({ code: 'unknown', message: 'Internal JSON-RPC error.' });
    expect(describeError(said)).toBe('Internal JSON-RPC error.');
    // Without words from the wallet the machine shows the catalogue's fallback.
    mock.rejectNext(4100, '');
    const silent = await failure(service.requestAccounts());
    expect(silent).toEqual({ code: 'unknown', message: null });
    expect(describeError(silent)).toBeNull();
  });

  it('refuses answers it cannot use with a code of their own, which the machines word', async () => {
    const { service, mock } = setup();
    mock.setAccounts([]);
    const none = await failure(service.requestAccounts());
    expect(none).toEqual({ code: 'no-account', message: null });
    expect(describeError(none)).toBe(walletCopy.noAccount);
    mock.setAccounts(['not an address']);
    const garbled = await failure(service.requestAccounts());
    expect(garbled).toEqual({ code: 'invalid-answer', message: null });
    expect(describeError(garbled)).toBe(walletCopy.invalidAnswer);
  });

  it('refuses a second prompt while one is open, without asking the wallet', async () => {
    const { service, mock } = setup();
    const release = mock.holdNext();
    const first = service.requestAccounts();
    expect(await failure(service.requestAccounts())).toEqual({ code: 'pending', message: null });
    expect(await failure(service.switchChain(31337))).toEqual({ code: 'pending', message: null });
    expect(mock.requests).toEqual(['eth_requestAccounts']);
    release();
    expect(await first).toEqual({ address: getAddress(ALICE), chainId: 31337 });
    // The lock is released once the prompt settles, whichever way.
    mock.rejectNext(4001);
    await failure(service.requestAccounts());
    await expect(service.requestAccounts()).resolves.toMatchObject({ chainId: 31337 });
  });
});

describe('silent reconnect and forgetting the connection', () => {
  it('reconnects without a prompt when the wallet still grants the site an account', async () => {
    const { service, mock } = setup({ connected: true });
    await service.discover();
    expect(await service.silentReconnect()).toEqual({ address: getAddress(ALICE), chainId: 31337 });
    expect(mock.requests).toEqual(['eth_accounts', 'eth_chainId']);
  });

  it('gives null when the wallet grants no account, or has none, or cannot answer', async () => {
    const { service, mock } = setup();
    expect(await service.silentReconnect()).toBeNull();
    mock.rejectNext(-32603, 'boom');
    expect(await service.silentReconnect()).toBeNull();
    const { window } = browser();
    expect(await createWalletService({ window, chain: HARDHAT }).silentReconnect()).toBeNull();
  });

  it('stays away after the user disconnected, until the next connect', async () => {
    const { service, mock, storage } = setup({ connected: true });
    await service.forgetConnection();
    expect(storage.get(USER_DISCONNECTED_KEY)).toBe('1');
    expect(mock.requests).toEqual(['wallet_revokePermissions']);
    expect(mock.isConnected()).toBe(false);

    // Even a wallet that would still answer eth_accounts is not asked.
    mock.requests.length = 0;
    const reloaded = createWalletService({ window: browserWith(storage, mock), chain: HARDHAT });
    expect(await reloaded.silentReconnect()).toBeNull();
    expect(mock.requests).toEqual([]);

    await service.requestAccounts();
    expect(await service.silentReconnect()).toEqual({ address: getAddress(ALICE), chainId: 31337 });
  });

  it('forgets the connection even when the wallet has no wallet_revokePermissions', async () => {
    const { service, mock, storage } = setup({ connected: true });
    mock.rejectNext(-32601, 'The method "wallet_revokePermissions" does not exist / is not available.');
    await expect(service.forgetConnection()).resolves.toBeUndefined();
    expect(storage.get(USER_DISCONNECTED_KEY)).toBe('1');
    expect(await service.silentReconnect()).toBeNull();
  });

  it('does not wait forever for a wallet that leaves wallet_revokePermissions unanswered', async () => {
    vi.useFakeTimers();
    try {
      const { service, mock, storage } = setup({ connected: true });
      mock.holdNext();
      const forgetting = service.forgetConnection();
      await vi.advanceTimersByTimeAsync(2_000);
      await expect(forgetting).resolves.toBeUndefined();
      expect(storage.get(USER_DISCONNECTED_KEY)).toBe('1');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps working where storage is blocked', async () => {
    const window = Object.defineProperty(new EventTarget(), 'localStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    installMockWallet(window, { rpcUrl: UNUSED_RPC, accounts: [ALICE], chainId: 31337, connected: true });
    const service = createWalletService({ window, chain: HARDHAT });
    await service.forgetConnection();
    await expect(service.requestAccounts()).resolves.toMatchObject({ chainId: 31337 });
  });
});

/** A new page load: a fresh window sharing the same storage, with the same wallet installed. */
function browserWith(storage: Map<string, string>, mock: MockWalletControls): WalletWindow {
  const { window } = browser();
  window.localStorage = {
    getItem: (key) => storage.get(key) ?? null,
    setItem: (key, value) => void storage.set(key, value),
    removeItem: (key) => void storage.delete(key),
  };
  window.ethereum = mock.provider;
  return window;
}

describe('switchChain', () => {
  it('switches to a chain the wallet knows', async () => {
    const { service, mock } = setup({ chainId: 1, knownChainIds: [31337] });
    const chains: number[] = [];
    service.watch({ chainChanged: (id) => chains.push(id) });
    await service.switchChain(31337);
    expect(mock.requests).toEqual(['wallet_switchEthereumChain']);
    expect(chains).toEqual([31337]);
  });

  it('adds the configured chain on 4902, then switches to it', async () => {
    const { service, mock } = setup({ chainId: 1 });
    const chains: number[] = [];
    service.watch({ chainChanged: (id) => chains.push(id) });
    await service.switchChain(31337);
    expect(mock.requests).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'eth_chainId',
      'wallet_switchEthereumChain',
    ]);
    expect(chains).toEqual([31337]);
  });

  it('adds the chain when the wallet answers 4902 once for a chain it should know', async () => {
    const { service, mock } = setup({ chainId: 1, knownChainIds: [31337] });
    mock.failSwitchWith4902Once();
    await service.switchChain(31337);
    expect(mock.requests.filter((method) => method === 'wallet_addEthereumChain')).toHaveLength(1);
    expect(await mock.provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
  });

  it('cannot add a chain it has no parameters for', async () => {
    const { service, mock } = setup({ chainId: 31337 });
    expect(await failure(service.switchChain(11155111))).toEqual({
      code: 'unrecognized-chain',
      message: null,
    });
    expect(mock.requests).toEqual(['wallet_switchEthereumChain']);
  });

  it('maps a rejected switch and a rejected add to rejected', async () => {
    const { service, mock } = setup({ chainId: 1, knownChainIds: [31337] });
    mock.rejectNext(4001);
    expect(await failure(service.switchChain(31337))).toEqual({ code: 'rejected', message: null });

    const unknown = setup({ chainId: 1 });
    // The switch answers 4902 by itself; the rejection then lands on the add.
    unknown.mock.failSwitchWith4902Once();
    const switching = unknown.service.switchChain(31337);
    unknown.mock.rejectNext(4001);
    expect(await failure(switching)).toEqual({ code: 'rejected', message: null });
    expect(unknown.mock.requests).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain']);
  });

  it('needs a wallet', async () => {
    const { window } = browser();
    const service = createWalletService({ window, chain: HARDHAT });
    expect(await failure(service.switchChain(31337))).toEqual({ code: 'not-installed', message: null });
  });
});

describe('signMessage and the provider', () => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const MESSAGE = 'example.com wants you to sign in with your Ethereum account:\nÜber ✓';

  /** A legacy wallet (window.ethereum) that holds one key and signs what personal_sign is given. */
  function signingWallet(answer?: (params: unknown) => unknown) {
    const { window } = browser();
    const seen: { method: string; params?: unknown }[] = [];
    const provider = {
      async request(args: { method: string; params?: unknown }) {
        seen.push(args);
        if (args.method !== 'personal_sign') throw new Error(`unexpected ${args.method}`);
        if (answer) return answer(args.params);
        const [data] = args.params as [Hex, string];
        return account.signMessage({ message: { raw: data } });
      },
    };
    window.ethereum = provider;
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 20 });
    return { service, provider, seen };
  }

  it('asks personal_sign with the message as hex-encoded UTF-8 and the address, and returns the signature', async () => {
    const { service, seen } = signingWallet();
    const signature = await service.signMessage(account.address, MESSAGE);
    expect(seen).toHaveLength(1);
    const [data, address] = seen[0]?.params as [Hex, string];
    expect(address).toBe(account.address);
    expect(hexToString(data)).toBe(MESSAGE);
    expect(await recoverMessageAddress({ message: MESSAGE, signature })).toBe(account.address);
  });

  it.each([
    ['not a string', 42],
    ['not hex', '0xnothex'],
    ['half a byte', '0xabc'],
  ])('refuses a signature that is %s as invalid-answer', async (_, answer) => {
    const { service } = signingWallet(() => answer);
    expect(await failure(service.signMessage(account.address, MESSAGE))).toEqual({
      code: 'invalid-answer',
      message: null,
    });
  });

  it('maps a declined signature (4001) to rejected and an open prompt to pending, as a connect', async () => {
    const { service, mock } = setup();
    mock.rejectNext(4001);
    expect(await failure(service.signMessage(ALICE, MESSAGE))).toEqual({ code: 'rejected', message: null });
    mock.pendingNext();
    expect(await failure(service.signMessage(ALICE, MESSAGE))).toEqual({ code: 'pending', message: null });
    expect(mock.requests).toEqual(['personal_sign', 'personal_sign']);
  });

  it('counts as a prompt: none while another is open, and no wallet is not-installed', async () => {
    const { service, mock } = setup();
    const release = mock.holdNext();
    const connecting = service.requestAccounts();
    expect(await failure(service.signMessage(ALICE, MESSAGE))).toEqual({ code: 'pending', message: null });
    release();
    await connecting;
    const none = createWalletService({ window: browser().window, chain: HARDHAT, discoveryTimeoutMs: 5 });
    expect(await failure(none.signMessage(ALICE, MESSAGE))).toEqual({ code: 'not-installed', message: null });
  });
});

describe('sendTransaction', () => {
  const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  const HASH = `0x${'ab'.repeat(32)}`;
  const transaction = { from: ALICE, to: TOKEN, data: '0xa9059cbb' as Hex };

  /** A legacy wallet on `chainId` that answers eth_sendTransaction with `answer`. */
  function sendingWallet(answer: unknown, chainId = 31337) {
    const { window } = browser();
    const seen: { method: string; params?: unknown }[] = [];
    window.ethereum = {
      async request(args: { method: string; params?: unknown }) {
        seen.push(args);
        if (args.method === 'eth_chainId') return `0x${chainId.toString(16)}`;
        if (args.method === 'eth_sendTransaction') return answer;
        throw new Error(`unexpected ${args.method}`);
      },
    };
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 20 });
    return { service, seen };
  }

  it('asks eth_sendTransaction for the call, with no value and the chain, and returns the hash', async () => {
    const { service, seen } = sendingWallet(HASH);
    expect(await service.sendTransaction(transaction)).toBe(HASH);
    expect(seen.at(-1)).toEqual({
      method: 'eth_sendTransaction',
      params: [{ ...transaction, value: '0x0', chainId: '0x7a69' }],
    });
  });

  it('sends the value in wei as hex, as a swap of ETH needs', async () => {
    const { service, seen } = sendingWallet(HASH);
    const swap = { ...transaction, value: 1_500_000_000_000_000_000n };
    expect(await service.sendTransaction(swap)).toBe(HASH);
    expect(seen.at(-1)).toEqual({
      method: 'eth_sendTransaction',
      params: [{ ...transaction, value: '0x14d1120d7b160000', chainId: '0x7a69' }],
    });
    expect(await failure(service.sendTransaction({ ...transaction, value: -1n }))).toEqual({
      code: 'unknown',
      message: 'a transaction cannot send a negative value',
    });
    expect(seen.filter((request) => request.method === 'eth_sendTransaction')).toHaveLength(1);
  });

  it('asks nothing of a wallet on another chain', async () => {
    const { service, seen } = sendingWallet(HASH, 1);
    expect(await failure(service.sendTransaction(transaction))).toEqual({
      code: 'wrong-chain',
      message: null,
    });
    expect(seen.map((r) => r.method)).toEqual(['eth_chainId']);
  });

  it('refuses an answer that is no transaction hash', async () => {
    const { service } = sendingWallet('0x1234');
    expect(await failure(service.sendTransaction(transaction))).toEqual({
      code: 'invalid-answer',
      message: null,
    });
  });

  it('maps a rejection (4001) to rejected, and keeps what the wallet said of other failures', async () => {
    const { service, mock } = setup();
    mock.rejectNextOf('eth_sendTransaction', 4001);
    expect(await failure(service.sendTransaction(transaction))).toEqual({ code: 'rejected', message: null });
    mock.rejectNextOf('eth_sendTransaction', -32603, 'gas required exceeds allowance');
    expect(await failure(service.sendTransaction(transaction))).toEqual({
      code: 'unknown',
      message: 'gas required exceeds allowance',
    });
  });
});

describe('watchToken', () => {
  const DDEX = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', symbol: 'DDEX', decimals: 18 };
  const asked = { type: 'ERC20', options: DDEX };

  /** A legacy wallet on `chainId` that answers wallet_watchAsset with `answer` (or throws it). */
  function listingWallet(answer: () => unknown, chainId = 31337) {
    const { window } = browser();
    const seen: { method: string; params?: unknown }[] = [];
    window.ethereum = {
      async request(args: { method: string; params?: unknown }) {
        seen.push(args);
        if (args.method === 'eth_chainId') return `0x${chainId.toString(16)}`;
        if (args.method === 'wallet_watchAsset') return answer();
        throw new Error(`unexpected ${args.method}`);
      },
    };
    const service = createWalletService({ window, chain: HARDHAT, discoveryTimeoutMs: 20 });
    return { service, seen };
  }

  it('asks wallet_watchAsset for the ERC-20 by address, symbol and decimals: true is added', async () => {
    const { service, mock } = setup();
    expect(await service.watchToken(DDEX)).toBe('added');
    // EIP-747's parameters are one object, not an array; the chain is checked first.
    expect(mock.requests).toEqual(['eth_chainId', 'wallet_watchAsset']);
    expect(mock.watchedAssets).toEqual([asked]);
  });

  it('is declined when the wallet answers false or the user refuses the prompt (4001)', async () => {
    const { service, mock } = setup();
    mock.watchAssetNext(false);
    expect(await service.watchToken(DDEX)).toBe('declined');
    mock.watchAssetNext(4001);
    expect(await service.watchToken(DDEX)).toBe('declined');
    expect(mock.watchedAssets).toEqual([asked, asked]);
  });

  it('is unsupported by a wallet without the method (-32601, or 4200), however it wraps the code', async () => {
    const { service, mock } = setup();
    mock.watchAssetNext(-32601);
    expect(await service.watchToken(DDEX)).toBe('unsupported');
    const unsupported = Object.assign(new Error('Unsupported method'), { code: 4200 });
    expect(await listingWallet(() => Promise.reject(unsupported)).service.watchToken(DDEX)).toBe(
      'unsupported',
    );
    const wrapped = { code: -32603, message: 'Internal error', data: { originalError: { code: -32601 } } };
    expect(await listingWallet(() => Promise.reject(wrapped)).service.watchToken(DDEX)).toBe('unsupported');
  });

  it('asks nothing of a wallet on another chain, where the token would be listed', async () => {
    const { service, seen } = listingWallet(() => true, 1);
    expect(await failure(service.watchToken(DDEX))).toEqual({ code: 'wrong-chain', message: null });
    expect(seen.map((request) => request.method)).toEqual(['eth_chainId']);
  });

  it('refuses an answer that is no boolean, and passes other failures on with their code or words', async () => {
    expect(await failure(listingWallet(() => null).service.watchToken(DDEX))).toEqual({
      code: 'invalid-answer',
      message: null,
    });
    const { service, mock } = setup();
    mock.rejectNextOf('wallet_watchAsset', -32002, 'Request already pending.');
    expect(await failure(service.watchToken(DDEX))).toEqual({ code: 'pending', message: null });
    mock.rejectNextOf('wallet_watchAsset', -32602, 'Invalid token address.');
    expect(await failure(service.watchToken(DDEX))).toEqual({
      code: 'unknown',
      message: 'Invalid token address.',
    });
  });

  it('counts as a prompt: none while another is open, and no wallet is not-installed', async () => {
    const { service, mock } = setup();
    const release = mock.holdNext();
    const connecting = service.requestAccounts();
    expect(await failure(service.watchToken(DDEX))).toEqual({ code: 'pending', message: null });
    release();
    await connecting;
    expect(mock.watchedAssets).toEqual([]);
    const none = createWalletService({ window: browser().window, chain: HARDHAT, discoveryTimeoutMs: 5 });
    expect(await failure(none.watchToken(DDEX))).toEqual({ code: 'not-installed', message: null });
  });
});

describe('watch', () => {
  it('follows account, chain and disconnect events until unsubscribed', async () => {
    const { service, mock } = setup();
    await service.discover();
    const seen: unknown[] = [];
    const stop = service.watch({
      accountsChanged: (accounts) => seen.push(['accounts', accounts]),
      chainChanged: (chainId) => seen.push(['chain', chainId]),
      disconnect: () => seen.push(['disconnect']),
    });
    mock.emitAccountsChanged([BOB]);
    mock.emitAccountsChanged([]);
    mock.emitChainChanged(11155111);
    mock.emitDisconnect();
    expect(seen).toEqual([
      ['accounts', [getAddress(BOB)]],
      ['accounts', []],
      ['chain', 11155111],
      ['disconnect'],
    ]);

    stop();
    expect(['accountsChanged', 'chainChanged', 'disconnect'].map(mock.listenerCount)).toEqual([0, 0, 0]);
    mock.emitAccountsChanged([ALICE]);
    mock.emitDisconnect();
    expect(seen).toHaveLength(4);
  });

  it('ignores malformed events and MetaMask reconnecting to its node (1013)', () => {
    const { service, mock } = setup();
    const seen: unknown[] = [];
    service.watch({
      accountsChanged: (accounts) => seen.push(accounts),
      chainChanged: (chainId) => seen.push(chainId),
      disconnect: () => seen.push('disconnect'),
    });
    mock.emitAccountsChanged(['not an address']);
    mock.emitRaw('accountsChanged', 'not a list');
    mock.emitRaw('chainChanged', 'mainnet');
    mock.emitRaw('chainChanged', '0x0');
    mock.emitRaw('disconnect', { code: 1013, message: 'Try again later.' });
    expect(seen).toEqual([]);
    // Decimal ids, as some wallets send them, are still understood.
    mock.emitRaw('chainChanged', 11155111);
    mock.emitRaw('chainChanged', '11155111');
    expect(seen).toEqual([11155111, 11155111]);
  });

  it('is a no-op without a wallet', () => {
    const { window } = browser();
    const stop = createWalletService({ window, chain: HARDHAT }).watch({ disconnect: () => undefined });
    expect(stop).not.toThrow();
  });
});

describe('copyAddress', () => {
  it('writes the full address to the clipboard', async () => {
    const { window, clipboard } = browser();
    await createWalletService({ window, chain: HARDHAT }).copyAddress(getAddress(ALICE));
    expect(clipboard).toEqual([getAddress(ALICE)]);
  });

  it("fails as unknown with the browser's reason when the clipboard refuses", async () => {
    const { window } = browser({ clipboard: 'refuses' });
    const service = createWalletService({ window, chain: HARDHAT });
    expect(await failure(service.copyAddress(ALICE))).toEqual({
      code: 'unknown',
      message: 'Document is not focused.',
    });
  });

  it('fails as unknown where there is no clipboard (insecure context)', async () => {
    const { window } = browser({ clipboard: 'missing' });
    const service = createWalletService({ window, chain: HARDHAT });
    expect(await failure(service.copyAddress(ALICE))).toEqual({ code: 'unknown', message: null });
  });
});

describe('toWalletError', () => {
  it("finds 4902 inside MetaMask Mobile's -32603 wrapper", () => {
    const wrapped = { code: -32603, message: 'Internal error', data: { originalError: { code: 4902 } } };
    expect(toWalletError(wrapped)).toEqual({ code: 'unrecognized-chain', message: null });
  });

  it("recognises a node's 'nonce too high' however the wallet wraps it", () => {
    const node =
      "Nonce too high. Expected nonce to be 0 but got 3. Note that transactions can't be queued when automining.";
    const ahead = { code: 'nonce-ahead', message: null };
    // MetaMask passes the node's refusal on inside -32603 'Internal JSON-RPC error.'.
    expect(
      toWalletError({
        code: -32603,
        message: 'Internal JSON-RPC error.',
        data: { code: -32000, message: node },
      }),
    ).toEqual(ahead);
    // A wallet that passes it on as it is, and one that wraps it as MetaMask Mobile wraps 4902.
    expect(toWalletError({ code: -32000, message: node })).toEqual(ahead);
    expect(
      toWalletError({ code: -32603, message: 'Internal error', data: { originalError: { message: node } } }),
    ).toEqual(ahead);
    // viem's sentence for the same refusal from a node.
    expect(
      toWalletError(new Error('Nonce provided for the transaction is higher than the next one expected.')),
    ).toEqual(ahead);
    // A nonce too low is another story (a replaced transaction), and stays the wallet's words.
    expect(toWalletError({ code: -32000, message: 'Nonce too low' })).toEqual({
      code: 'unknown',
      message: 'Nonce too low',
    });
  });

  it('keeps its own errors and reads thrown text', () => {
    expect(toWalletError({ code: 'pending', message: null })).toEqual({ code: 'pending', message: null });
    expect(toWalletError('wallet locked')).toEqual({ code: 'unknown', message: 'wallet locked' });
    expect(toWalletError(undefined)).toEqual({ code: 'unknown', message: null });
  });
});

describe('the mock wallet script', () => {
  it('runs on its own in a fresh global scope, as Playwright injects it', async () => {
    const window = new EventTarget() as TestWindow;
    const announced: unknown[] = [];
    window.addEventListener('eip6963:announceProvider', (event) =>
      announced.push((event as CustomEvent).detail),
    );
    const script = mockWalletInitScript({
      rpcUrl: UNUSED_RPC,
      accounts: [ALICE],
      chainId: 31337,
      injectWindowEthereum: true,
    });
    // Only the page's globals: nothing from this module can leak in.
    runInNewContext(script, { window, CustomEvent });
    expect(announced).toHaveLength(1);
    expect(window.__mockWallet?.provider).toBe(window.ethereum);
    const service = createWalletService({ window, chain: HARDHAT });
    expect(await service.requestAccounts()).toEqual({ address: getAddress(ALICE), chainId: 31337 });
  });
});

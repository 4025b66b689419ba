import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { announceLocalWallet } from '../../src/services/local-wallet/announce.ts';
import { LOCAL_WALLET_INFO } from '../../src/services/local-wallet/names.ts';
import {
  loadOrCreateKey,
  LOCAL_WALLET_KEY,
  replaceKey,
  storedKey,
} from '../../src/services/local-wallet/key-store.ts';
import { createLocalWalletProvider } from '../../src/services/local-wallet/provider.ts';
import { createWalletService, type WalletChain, type WalletWindow } from '../../src/services/wallet/index.ts';

const LOCAL_CHAIN: WalletChain = {
  id: 31337,
  name: 'Hardhat',
  rpcUrl: 'http://127.0.0.1:9/never-called',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
};

// The local test wallet's key in the browser's storage, and its EIP-6963 announcement, which the
// portal's own wallet service must find as it finds an extension.

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    map,
  };
}

describe('the key in storage', () => {
  it('makes a key on first use, keeps it, and says which of the two happened', () => {
    const storage = memoryStorage();
    const first = loadOrCreateKey(storage);
    expect(first.created).toBe(true);
    expect(storage.map.get(LOCAL_WALLET_KEY)).toBe(first.key);
    expect(loadOrCreateKey(storage)).toEqual({ key: first.key, created: false });
  });

  it('replaces the key with a new one, and makes a new one where the stored value is no key', () => {
    const storage = memoryStorage();
    const { key } = loadOrCreateKey(storage);
    const next = replaceKey(storage);
    expect(next).not.toBe(key);
    expect(storedKey(storage)).toBe(next);
    const broken = memoryStorage({ [LOCAL_WALLET_KEY]: 'not a key' });
    expect(storedKey(broken)).toBeNull();
    expect(loadOrCreateKey(broken).created).toBe(true);
  });
});

describe('the announcement', () => {
  it("is found by the portal's wallet service as an EIP-6963 wallet named 'Local test wallet'", async () => {
    const window: WalletWindow = Object.assign(new EventTarget(), {
      localStorage: memoryStorage(),
      navigator: {},
    });
    const provider = createLocalWalletProvider({
      rpcUrl: 'http://127.0.0.1:9',
      chainId: 31337,
      privateKey: generatePrivateKey(),
      approve: async () => true,
    });
    const service = createWalletService({ window, chain: LOCAL_CHAIN, discoveryTimeoutMs: 50 });
    const stop = announceLocalWallet(window, provider, 'local-uuid');
    const found = await service.discover();
    expect(found).toMatchObject({
      available: true,
      info: { name: LOCAL_WALLET_INFO.name, rdns: LOCAL_WALLET_INFO.rdns, uuid: 'local-uuid' },
    });
    stop();
  });
});

import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { dataProviderCopy, tokenCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import { onFirstUse } from '../../src/services/on-first-use.ts';
import { createDeferredSupabaseService } from '../../src/services/supabase/deferred-service.ts';
import {
  BackendError,
  createSupabaseClient,
  createSupabaseService,
  NETWORK_ERROR,
  type AuthChange,
  type SubscriptionStatus,
  type SupabaseService,
} from '../../src/services/supabase/index.ts';
import { createDeferredTatumService } from '../../src/services/tatum/deferred-service.ts';
import { TatumServiceError, type TatumService } from '../../src/services/tatum/types.ts';
import { createDeferredTokenService } from '../../src/services/token/deferred-service.ts';
import { TokenServiceError, type TokenService } from '../../src/services/token/types.ts';
import { createDeferredWalletService } from '../../src/services/wallet/deferred-service.ts';
import type { WalletChain, WalletEventHandlers, WalletService } from '../../src/services/wallet/types.ts';

// The stand-ins that keep supabase-js, viem's RPC code and the Tatum service
// out of the entry bundle: they import on first use, once, try again after a
// failed import, and report a failed import in each service's own error shape.

const USER = { id: 'u1', email: 'a@ddex.example', metadata: {} } as never;

/** A real service's shape with only the calls a test needs. */
const fakeSupabase = (calls: Partial<SupabaseService>): SupabaseService => calls as SupabaseService;

describe('onFirstUse', () => {
  it('imports once for any number of callers and again only after a failure', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('module');
    const use = onFirstUse(load);
    await expect(use()).rejects.toThrow('Failed to fetch');
    expect(await Promise.all([use(), use(), use()])).toEqual(['module', 'module', 'module']);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('deferred supabase service', () => {
  it('does not import anything until the first call, then forwards every call to the one real service', async () => {
    const getSession = vi.fn(() => Promise.resolve(USER));
    const load = vi.fn(() => Promise.resolve(fakeSupabase({ getSession })));
    const service = createDeferredSupabaseService({ url: 'http://127.0.0.1:1', load });
    expect(load).not.toHaveBeenCalled();
    expect(await service.getSession()).toBe(USER);
    expect(await service.getSession()).toBe(USER);
    expect(load).toHaveBeenCalledTimes(1);
    expect(getSession).toHaveBeenCalledTimes(2);
  });

  it('forwards the wallet calls with their arguments: proof, link, clear and Sign in with Ethereum', async () => {
    const profile = { id: 'u1' } as never;
    const real = fakeSupabase({
      requestWalletNonce: vi.fn(() => Promise.resolve({ nonce: 'Abc123def456', expiresAt: 'soon' })),
      linkWallet: vi.fn(() => Promise.resolve(profile)),
      clearWallet: vi.fn(() => Promise.resolve(profile)),
      signInWithWallet: vi.fn(() => Promise.resolve(USER)),
    });
    const service = createDeferredSupabaseService({
      url: 'http://127.0.0.1:1',
      load: () => Promise.resolve(real),
    });
    const proof = { message: 'm', signature: '0x00' };
    const request = { message: 'signed', signature: '0x01' };
    expect(await service.requestWalletNonce('0xabc')).toEqual({ nonce: 'Abc123def456', expiresAt: 'soon' });
    expect(await service.linkWallet(proof)).toBe(profile);
    expect(await service.clearWallet('u1')).toBe(profile);
    expect(await service.signInWithWallet(request)).toBe(USER);
    expect(real.requestWalletNonce).toHaveBeenCalledWith('0xabc');
    expect(real.linkWallet).toHaveBeenCalledWith(proof);
    expect(real.clearWallet).toHaveBeenCalledWith('u1');
    expect(real.signInWithWallet).toHaveBeenCalledWith(request);
  });

  it('reports an import that fails as a network error, and tries again on the next call', async () => {
    const load = vi
      .fn<() => Promise<SupabaseService>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(fakeSupabase({ listTransactions: () => Promise.resolve([]) }));
    const service = createDeferredSupabaseService({ url: 'http://127.0.0.1:1', load });
    const error = await service.listTransactions('u1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ code: NETWORK_ERROR });
    expect((error as Error).message).toContain('Failed to fetch dynamically imported module');
    // What the user reads is that message: a backend failure the portal has no words of its own for.
    expect(describeError(error)).toBe((error as Error).message);
    expect(await service.listTransactions('u1')).toEqual([]);
  });

  it('subscribes auth changes once loaded, and not at all when unsubscribed before', async () => {
    const listeners: ((change: AuthChange) => void)[] = [];
    const unsubscribed = vi.fn();
    const real = fakeSupabase({
      onAuthChange: (listener) => {
        listeners.push(listener);
        return unsubscribed;
      },
    });
    const service = createDeferredSupabaseService({
      url: 'http://127.0.0.1:1',
      load: () => Promise.resolve(real),
    });
    const seen: AuthChange[] = [];
    const stop = service.onAuthChange((change) => seen.push(change));
    const early = service.onAuthChange(() => seen.push({ event: 'SIGNED_OUT', user: null }));
    early();
    await vi.waitFor(() => expect(listeners).toHaveLength(1));
    listeners[0]?.({ event: 'SIGNED_IN', user: USER });
    expect(seen).toEqual([{ event: 'SIGNED_IN', user: USER }]);
    stop();
    expect(unsubscribed).toHaveBeenCalledTimes(1);
  });

  it('attaches auth listeners on the next successful import when the first one failed', async () => {
    const listeners: ((change: AuthChange) => void)[] = [];
    const real = fakeSupabase({
      onAuthChange: (listener) => {
        listeners.push(listener);
        return () => undefined;
      },
      signIn: () => Promise.resolve(USER),
    });
    const load = vi
      .fn<() => Promise<SupabaseService>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(real);
    const service = createDeferredSupabaseService({ url: 'http://127.0.0.1:1', load });
    const seen: AuthChange[] = [];
    service.onAuthChange((change) => seen.push(change));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(listeners).toHaveLength(0);
    // The user logs in later: that call loads the client, and the session's listener comes with it.
    await service.signIn({ email: 'a@ddex.example', password: 'x' });
    expect(listeners).toHaveLength(1);
    listeners[0]?.({ event: 'TOKEN_REFRESHED', user: USER });
    expect(seen).toEqual([{ event: 'TOKEN_REFRESHED', user: USER }]);
  });

  it('reports a notifications channel whose client cannot load as CHANNEL_ERROR', async () => {
    const service = createDeferredSupabaseService({
      url: 'http://127.0.0.1:1',
      load: () => Promise.reject(new TypeError('offline')),
    });
    const statuses: [SubscriptionStatus, string | undefined][] = [];
    service.subscribeNotifications('u1', {
      onChange: () => undefined,
      onStatus: (status, message) => statuses.push([status, message]),
    });
    await vi.waitFor(() => expect(statuses).toHaveLength(1));
    expect(statuses[0]?.[0]).toBe('CHANNEL_ERROR');
    expect(statuses[0]?.[1]).toContain('offline');
  });

  it('gives the same avatar URL as supabase-js, without loading it', () => {
    const url = 'http://127.0.0.1:54321';
    const load = vi.fn<() => Promise<SupabaseService>>();
    const deferred = createDeferredSupabaseService({ url, load });
    const real = createSupabaseService(
      createSupabaseClient({ url, anonKey: 'anon', realtimeTransport: WebSocket }),
      { siteUrl: url },
    );
    for (const path of ['6f41357b-1790000000000.png', 'a b/ü.jpg', '/leading.gif']) {
      expect(deferred.avatarPublicUrl(path)).toBe(real.avatarPublicUrl(path));
    }
    expect(deferred.avatarPublicUrl('')).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });
});

describe('deferred token and Tatum services', () => {
  it('reports a token service that cannot load as the node being unreachable', async () => {
    const service = createDeferredTokenService(() => Promise.reject(new TypeError('offline')));
    const error = await service.readBalance('0x0').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TokenServiceError);
    expect(error).toMatchObject({
      reason: 'rpc-unavailable',
      problem: { code: 'rpc-unavailable', status: null },
    });
    expect(describeError(error)).toBe(tokenCopy.rpcUnavailable);
  });

  it('forwards token calls to the loaded service', async () => {
    const balance = { raw: 5n, formatted: '5', decimals: 0 };
    const real = { readBalance: vi.fn(() => Promise.resolve(balance)) } as unknown as TokenService;
    const service = createDeferredTokenService(() => Promise.resolve(real));
    expect(await service.readBalance('0xabc')).toBe(balance);
  });

  it("reports a Tatum service that cannot load as the SDK's init failure", async () => {
    const service = createDeferredTatumService(() => Promise.reject(new TypeError('offline')));
    const error = await service.listWebhooks().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TatumServiceError);
    expect(error).toMatchObject({ operation: 'init', detail: 'offline' });
    expect(describeError(error)).toBe(dataProviderCopy.initFailed);
  });

  it('destroys nothing, and loads nothing, when the Tatum service was never used', async () => {
    const load = vi.fn<() => Promise<TatumService>>();
    await createDeferredTatumService(load).destroy();
    expect(load).not.toHaveBeenCalled();
    const destroy = vi.fn(() => Promise.resolve());
    const used = createDeferredTatumService(() =>
      Promise.resolve({ listWebhooks: () => Promise.resolve([]), destroy } as unknown as TatumService),
    );
    await used.listWebhooks();
    await used.destroy();
    expect(destroy).toHaveBeenCalledTimes(1);
  });
});

describe('deferred wallet service', () => {
  const CHAIN: WalletChain = {
    id: 31337,
    name: 'Hardhat',
    rpcUrl: 'http://127.0.0.1:8545',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  };
  const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;

  function fakeWallet() {
    const watched: WalletEventHandlers[] = [];
    const stopped: WalletEventHandlers[] = [];
    const real: WalletService = {
      chain: CHAIN,
      discover: vi.fn(() => Promise.resolve({ available: true, info: null })),
      silentReconnect: vi.fn(() => Promise.resolve({ address: ALICE, chainId: 31337 })),
      requestAccounts: vi.fn(() => Promise.resolve({ address: ALICE, chainId: 31337 })),
      switchChain: vi.fn(() => Promise.resolve()),
      signMessage: vi.fn(() => Promise.resolve('0x01' as const)),
      sendTransaction: vi.fn(() => Promise.resolve('0x02' as const)),
      watchToken: vi.fn(() => Promise.resolve('added' as const)),
      copyAddress: vi.fn(() => Promise.resolve()),
      forgetConnection: vi.fn(() => Promise.resolve()),
      watch: (handlers) => {
        watched.push(handlers);
        return () => void stopped.push(handlers);
      },
    };
    return { real, watched, stopped };
  }

  it('knows the chain at once, loads the real service on the first call only, and forwards to it', async () => {
    const { real } = fakeWallet();
    const load = vi.fn(() => Promise.resolve(real));
    const wallet = createDeferredWalletService(CHAIN, load);
    expect(wallet.chain).toBe(CHAIN);
    expect(load).not.toHaveBeenCalled();
    expect(await wallet.discover()).toEqual({ available: true, info: null });
    expect(await wallet.silentReconnect()).toEqual({ address: ALICE, chainId: 31337 });
    expect(await wallet.signMessage(ALICE, 'hello')).toBe('0x01');
    expect(await wallet.sendTransaction({ from: ALICE, to: ALICE, data: '0x' })).toBe('0x02');
    await wallet.switchChain(1);
    const ddex = { address: ALICE, symbol: 'DDEX', decimals: 18 };
    expect(await wallet.watchToken(ddex)).toBe('added');
    expect(real.watchToken).toHaveBeenCalledWith(ddex);
    expect(real.signMessage).toHaveBeenCalledWith(ALICE, 'hello');
    expect(real.switchChain).toHaveBeenCalledWith(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('watches once loaded, and an unsubscribe that comes first wins', async () => {
    const { real, watched, stopped } = fakeWallet();
    const wallet = createDeferredWalletService(CHAIN, () => Promise.resolve(real));
    const early = {};
    wallet.watch(early)();
    const later = {};
    const stop = wallet.watch(later);
    await wallet.discover();
    expect(watched).toEqual([later]);
    stop();
    expect(stopped).toEqual([later]);
  });

  it('says the wallet code could not be loaded, and tries again on the next call', async () => {
    const { real } = fakeWallet();
    const load = vi
      .fn<() => Promise<WalletService>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue(real);
    const wallet = createDeferredWalletService(CHAIN, load);
    await expect(wallet.requestAccounts()).rejects.toEqual({
      code: 'unknown',
      message: expect.stringMatching(/could not be loaded: Failed to fetch/),
    });
    expect(await wallet.requestAccounts()).toEqual({ address: ALICE, chainId: 31337 });
  });

  it('never rejects a silent reconnect or a forget, as the real service promises', async () => {
    const wallet = createDeferredWalletService(CHAIN, () => Promise.reject(new Error('offline')));
    expect(await wallet.silentReconnect()).toBeNull();
    await expect(wallet.forgetConnection()).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { watchDdex } from '../../../src/app/watch-token.ts';
import { sendCopy, shellCopy, walletCopy } from '../../../src/copy/index.ts';
import { watchTokenCopy } from '../../../src/copy/watch-token.ts';
import type { WalletAsset, WalletError, WatchTokenOutcome } from '../../../src/domain/wallet.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { walletMachine, type WalletAccount } from '../../../src/machines/wallet/wallet.machine.ts';
import type { WalletService } from '../../../src/services/wallet/types.ts';
import { lastCall, settle, type Call } from '../../support/deferred-actor.ts';
import { ALICE, OTHER_CHAIN, SEPOLIA } from '../../support/machines/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// Adding DDEX to the wallet (docs/product.md#wallet): the wallet machine asks only while connected
// on the portal's chain, one request at a time, and shows the toast the request's answer gets. The
// request and its words load with the first press (src/app/watch-token.ts), run here for real
// against a wallet service whose watchToken the test answers.

const DDEX = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

type Answer = WatchTokenOutcome | { fails: unknown };

/** The wallet service as the request sees it: its chain, and a watchToken the test answers. */
function walletAnswering(asked: WalletAsset[], answers: Answer[]): WalletService {
  const service: Pick<WalletService, 'chain' | 'watchToken'> = {
    chain: { ...SEPOLIA, rpcUrl: '', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
    async watchToken(asset) {
      asked.push(asset);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no answer left');
      if (typeof answer === 'object') throw answer.fails;
      return answer;
    },
  };
  return service as WalletService;
}

/** The wallet machine with the real request (`answers` for its wallet), or the harness's stand-in. */
function start(options: { answers?: Answer[]; tokenAddress?: string | null } = {}) {
  const asked: WalletAsset[] = [];
  const { answers } = options;
  const wallet = walletAnswering(asked, answers ?? []);
  const h = machineHarness(walletMachine, {
    input: { expectedChain: SEPOLIA },
    callbacks: ['providerEvents'],
    ...(answers
      ? {
          actors: {
            watchToken: fromPromise(() =>
              watchDdex(wallet, options.tokenAddress === undefined ? DDEX : options.tokenAddress),
            ),
          },
        }
      : {}),
  });
  return {
    h,
    asked,
    async connected(account: WalletAccount = { address: ALICE, chainId: SEPOLIA.id }) {
      await h.answer('discover', { available: true });
      await h.answer('silentReconnect', account);
      h.toasts.length = 0;
    },
    asking: () => h.snapshot().matches({ connected: { listing: 'asking' } }),
  };
}

const notAdded = (description: string, variant?: 'destructive'): ToastRequest => ({
  title: walletCopy.tokenNotAdded,
  description,
  ...(variant ? { variant } : {}),
});

describe('wallet machine: add DDEX to the wallet', () => {
  it('asks the wallet on the portal’s chain, busy until it answers; a second press meanwhile is ignored', async () => {
    const { h, connected, asking } = start();
    await connected();
    expect(h.snapshot().hasTag('busy')).toBe(false);
    h.send({ type: 'wallet.watchToken' });
    expect(asking()).toBe(true);
    expect(h.snapshot().hasTag('busy')).toBe(true);
    h.send({ type: 'wallet.watchToken' });
    expect(h.calls('watchToken')).toHaveLength(1);

    const toast = { title: watchTokenCopy.added.title };
    await h.answer('watchToken', toast);
    expect(asking()).toBe(false);
    expect(h.snapshot().hasTag('busy')).toBe(false);
    expect(h.toasts).toEqual([toast]);
    // The panel is unchanged, and another press asks again.
    expect(h.snapshot().matches({ connected: { network: 'rightNetwork' } })).toBe(true);
    h.send({ type: 'wallet.watchToken' });
    expect(h.calls('watchToken')).toHaveLength(2);
  });

  it('asks nothing without a connected wallet', async () => {
    const { h } = start();
    h.send({ type: 'wallet.watchToken' });
    await h.answer('discover', { available: false });
    h.send({ type: 'wallet.watchToken' });
    expect(h.calls('watchToken')).toHaveLength(0);
    expect(h.toasts).toEqual([]);

    const other = start();
    await other.h.answer('discover', { available: true });
    await other.h.answer('silentReconnect', null);
    other.h.send({ type: 'wallet.watchToken' });
    expect(other.h.snapshot().value).toBe('disconnected');
    expect(other.h.calls('watchToken')).toHaveLength(0);
  });

  it('asks nothing on another network, nor while the wallet is asked to switch', async () => {
    const { h, connected } = start();
    await connected({ address: ALICE, chainId: OTHER_CHAIN });
    h.send({ type: 'wallet.watchToken' });
    h.send({ type: 'wallet.switchNetwork' });
    h.send({ type: 'wallet.watchToken' });
    expect(h.snapshot().matches({ connected: { network: 'switching' } })).toBe(true);
    expect(h.calls('watchToken')).toHaveLength(0);
    expect(h.toasts).toEqual([]);
  });

  it('drops the request when the wallet goes away while it is asked', async () => {
    const { h, connected } = start();
    await connected();
    h.send({ type: 'wallet.watchToken' });
    const call = lastCall(h.calls('watchToken') as Call<unknown>[]);
    h.send({ type: 'wallet.disconnect' });
    call.resolve({ title: watchTokenCopy.added.title });
    await settle();
    expect(h.toasts).toEqual([walletCopy.disconnected]);
  });

  it('says so when the request’s code could not be loaded', async () => {
    const { h, connected } = start();
    await connected();
    h.send({ type: 'wallet.watchToken' });
    await h.fail('watchToken', new TypeError('Failed to fetch dynamically imported module'));
    expect(h.toasts).toEqual([notAdded(shellCopy.partLoadFailed, 'destructive')]);
    expect(h.snapshot().matches({ connected: { listing: 'idle' } })).toBe(true);
  });
});

describe('wallet machine: what the wallet answered, in a toast', () => {
  /** Connects, presses once per answer, and returns the toasts and what the wallet was asked. */
  async function pressFor(answers: Answer[], tokenAddress?: string | null) {
    const { h, connected, asked } = start({ answers: [...answers], tokenAddress });
    await connected();
    for (let press = 0; press < answers.length; press += 1) {
      h.send({ type: 'wallet.watchToken' });
      await settle();
    }
    return { toasts: h.toasts, asked };
  }

  it('added: the wallet was asked for DDEX by its address, symbol and 18 decimals', async () => {
    const { toasts, asked } = await pressFor(['added']);
    expect(asked).toEqual([{ address: DDEX, symbol: 'DDEX', decimals: 18 }]);
    expect(toasts).toEqual([watchTokenCopy.added]);
  });

  it('declined: the user said no (a false answer, or a refused prompt)', async () => {
    const { toasts } = await pressFor(['declined']);
    expect(toasts).toEqual([notAdded(watchTokenCopy.declined)]);
  });

  it('unsupported: the wallet cannot add tokens, so the toast gives the address to add by hand', async () => {
    const { toasts } = await pressFor(['unsupported']);
    expect(toasts).toEqual([notAdded(watchTokenCopy.unsupported(DDEX))]);
    expect(watchTokenCopy.unsupported(DDEX)).toContain(DDEX);
  });

  it('failed: another request open, the wrong network, no wallet, or what the wallet said', async () => {
    const failures: [WalletError | Error, string][] = [
      [{ code: 'pending', message: null }, walletCopy.switchPending],
      [{ code: 'wrong-chain', message: null }, watchTokenCopy.wrongChain(SEPOLIA.name)],
      [{ code: 'not-installed', message: null }, walletCopy.notInstalled],
      [{ code: 'invalid-answer', message: null }, walletCopy.invalidAnswer],
      [{ code: 'unknown', message: 'Invalid token address.' }, 'Invalid token address.'],
      [{ code: 'unknown', message: null }, watchTokenCopy.failed],
    ];
    const { toasts } = await pressFor(failures.map(([error]) => ({ fails: error })));
    expect(toasts).toEqual(failures.map(([, words]) => notAdded(words, 'destructive')));
  });

  it('without a configured DDEX contract, asks nothing and says so as the send form does', async () => {
    const { toasts, asked } = await pressFor(['added'], null);
    expect(asked).toEqual([]);
    expect(toasts).toEqual([{ ...sendCopy.configurationError, variant: 'destructive' }]);
  });
});

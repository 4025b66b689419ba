import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { balanceCopy, dataProviderCopy, tokenCopy } from '../../src/copy/index.ts';
import type { DataProviderFailure } from '../../src/domain/errors.ts';
import { balancesMachine, type BalanceReading } from '../../src/machines/balances.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// The wallet panel's two balances (docs/product.md#balances): the generated paths, each step
// checked for what each fetch is asked, what the panel reads, the one toast a failed load
// shows, worded for the failure the path chose, and what a copy takes and says.

type Snapshot = SnapshotFrom<typeof balancesMachine>;

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const NATIVE = { balance: '0.75', asset: 'ETH' };
const TOKEN = { formatted: '12.5' };
const NONE: BalanceReading = { status: 'none' };
const FAILED: BalanceReading = { status: 'failed' };
const NOT_CONFIGURED: BalanceReading = { status: 'notConfigured' };

const tatum = (fields: Partial<DataProviderFailure>): DataProviderFailure => ({
  name: 'TatumServiceError',
  operation: 'getNativeBalance',
  detail: null,
  code: null,
  ...fields,
});

/** A failed fetch and the words under 'Balance Fetch Error'. */
type Failure = { error: unknown; words: string };
const nativeFailures: Failure[] = [
  { error: tatum({ code: 'http_error', detail: 'HTTP 500' }), words: dataProviderCopy.balanceUnknownError },
  { error: tatum({ code: 'rate_limited', retryAfterSeconds: 12 }), words: dataProviderCopy.rateLimited(12) },
  { error: tatum({ code: 'rate_limited' }), words: dataProviderCopy.rateLimited(null) },
  { error: tatum({ code: 'busy', retryAfterSeconds: 30 }), words: dataProviderCopy.busy(30) },
  { error: tatum({ code: 'busy' }), words: dataProviderCopy.busy(null) },
  { error: tatum({ code: 'webhook_limit' }), words: dataProviderCopy.webhookLimit },
  { error: tatum({ operation: 'init' }), words: dataProviderCopy.initFailed },
  { error: new Error('node down'), words: 'node down' },
  { error: new Error(''), words: dataProviderCopy.balanceUnknownError },
];
const tokenFailures: Failure[] = [
  {
    error: new TokenServiceError({ code: 'rpc-unavailable', status: null }),
    words: tokenCopy.rpcUnavailable,
  },
  { error: new TokenServiceError({ code: 'no-token-contract' }), words: tokenCopy.noTokenContract },
  { error: new TokenServiceError({ code: 'invalid-address' }), words: tokenCopy.invalidAddress },
  { error: { message: 'execution reverted' }, words: 'execution reverted' },
  { error: null, words: dataProviderCopy.balanceUnknownError },
];

const fetchError = (words: string): ToastRequest => ({
  title: balanceCopy.fetchError,
  description: words,
  variant: 'destructive',
});

function everyStep(
  s: Snapshot,
  { before, events, toasts, inputOf }: ModelStep<typeof balancesMachine>,
  tokenConfigured: boolean,
  failures: { native: Failure; token: Failure },
) {
  const event = events.at(-1);
  const { context } = s;
  if (inState(s, 'idle')) {
    // No wallet: nothing to read, and a refresh says so.
    expect(context).toMatchObject({ address: null, native: NONE, ddex: NONE });
    for (const toast of toasts)
      expect(toast).toEqual({ ...balanceCopy.walletNotConnected, variant: 'destructive' });
  } else {
    // The connected wallet's balances, nobody else's.
    expect(context.address).toBe(ALICE);
  }
  if (inState(s, 'loading')) {
    expect(s.hasTag('loading')).toBe(true);
    if (inState(s, 'loading.native.fetching'))
      expect(inputOf('fetchNativeBalance')).toEqual({ address: ALICE });
    if (inState(s, 'loading.token.fetching'))
      expect(inputOf('fetchTokenBalance')).toEqual({ address: ALICE });
    // Without a token contract nothing is fetched for it.
    if (!tokenConfigured) expect(inState(s, 'loading.token.done')).toBe(true);
    expect(toasts).toEqual([]);
  }
  if (inState(s, 'loaded')) {
    expect(context.native).toEqual({ status: 'loaded', value: NATIVE.balance });
    expect(context.ddex).toEqual(
      tokenConfigured ? { status: 'loaded', value: TOKEN.formatted } : NOT_CONFIGURED,
    );
    // A copy takes the exact value read; without a token contract there is no DDEX value to copy.
    if (event?.type === 'balances.copy') {
      const native = (event as { balance?: string }).balance === 'native';
      expect(inState(s, 'loaded.copying')).toBe(native || tokenConfigured);
      if (native || tokenConfigured)
        expect(inputOf('copyBalance')).toEqual({ text: native ? NATIVE.balance : TOKEN.formatted });
    }
    if (event?.type === 'xstate.done.actor.copyBalance') expect(toasts).toEqual([balanceCopy.copied]);
    else if (event?.type === 'xstate.error.actor.copyBalance')
      expect(toasts).toEqual([{ ...balanceCopy.copyFailed, variant: 'destructive' }]);
    else expect(toasts).toEqual([]);
  }
  if (inState(s, 'failed')) {
    // Any failure marks every fetched balance failed; a missing contract stays as it is.
    expect(context.native).toEqual(FAILED);
    expect(context.ddex).toEqual(tokenConfigured ? FAILED : NOT_CONFIGURED);
    // One toast per load, with the words of the fetch that failed.
    if (before !== undefined && inState(before, 'loading') && event) {
      const failure = event.type.endsWith('fetchNativeBalance') ? failures.native : failures.token;
      expect(toasts).toEqual([fetchError(failure.words)]);
    } else expect(toasts).toEqual([]);
  }
}

// The token contract is configuration (input), so each setting is one model of the same machine;
// each pair of failures is another. The coverage table merges them under one name.
const failureCases = nativeFailures.map((native, index) => ({
  native,
  token: tokenFailures[index % tokenFailures.length] as Failure,
}));
for (const tokenConfigured of [true, false]) {
  for (const failures of tokenConfigured ? failureCases : failureCases.slice(0, 1)) {
    describeModel({
      name: 'balances',
      machine: balancesMachine,
      input: { tokenConfigured },
      events: {
        'wallet.changed': [
          { type: 'wallet.changed', address: ALICE, chainId: 11155111 },
          { type: 'wallet.changed', address: null, chainId: null },
        ],
        'xstate.done.actor.fetchNativeBalance': [
          { type: 'xstate.done.actor.fetchNativeBalance', output: NATIVE },
        ],
        'xstate.error.actor.fetchNativeBalance': [
          { type: 'xstate.error.actor.fetchNativeBalance', error: failures.native.error },
        ],
        'xstate.done.actor.fetchTokenBalance': [
          { type: 'xstate.done.actor.fetchTokenBalance', output: TOKEN },
        ],
        'xstate.error.actor.fetchTokenBalance': [
          { type: 'xstate.error.actor.fetchTokenBalance', error: failures.token.error },
        ],
        'balances.copy': [
          { type: 'balances.copy', balance: 'native' },
          { type: 'balances.copy', balance: 'ddex' },
        ],
        'xstate.done.actor.copyBalance': [{ type: 'xstate.done.actor.copyBalance', output: undefined }],
        'xstate.error.actor.copyBalance': [
          { type: 'xstate.error.actor.copyBalance', error: new DOMException('Denied', 'NotAllowedError') },
        ],
      },
      states: { '*': (s, step) => everyStep(s, step, tokenConfigured, failures) },
    });
  }
}

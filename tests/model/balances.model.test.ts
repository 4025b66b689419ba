import { expect } from 'vitest';
import { balancesMachine } from '../../src/machines/balances.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel } from './support/index.ts';

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const toasts: ToastRequest[] = [];
const NONE = { status: 'none' };
const FAILED = { status: 'failed' };
const NOT_CONFIGURED = { status: 'notConfigured' };

const events = {
  'wallet.changed': [
    { type: 'wallet.changed', address: ALICE, chainId: 11155111 },
    { type: 'wallet.changed', address: null, chainId: null },
  ],
  'xstate.done.actor.fetchNativeBalance': [
    { type: 'xstate.done.actor.fetchNativeBalance', output: { balance: '0.75', asset: 'ETH' } },
  ],
  'xstate.error.actor.fetchNativeBalance': [
    { type: 'xstate.error.actor.fetchNativeBalance', error: new Error('node down') },
  ],
  'xstate.done.actor.fetchTokenBalance': [
    { type: 'xstate.done.actor.fetchTokenBalance', output: { formatted: '12.5' } },
  ],
  'xstate.error.actor.fetchTokenBalance': [
    { type: 'xstate.error.actor.fetchTokenBalance', error: new Error('rpc') },
  ],
};

// The token contract is configuration (input), so each setting is one model of the same machine;
// the coverage table merges them under one name.
for (const tokenConfigured of [true, false]) {
  describeModel({
    name: 'balances',
    machine: balancesMachine,
    deferredActors: ['fetchNativeBalance', 'fetchTokenBalance'],
    provide: { actions: { showToast: (_, params) => void toasts.push(params) } },
    input: { tokenConfigured },
    events,
    states: {
      idle: (s) => expect(s.context).toMatchObject({ address: null, native: NONE, ddex: NONE }),
      loading: (s) => expect(s.hasTag('loading')).toBe(true),
      // Reached only through `onDone` of the parallel `loading`: the paths never send `xstate.done.state.*`.
      loaded: (s) =>
        expect(s.context).toMatchObject({
          native: { status: 'loaded', value: '0.75' },
          ddex: tokenConfigured ? { status: 'loaded', value: '12.5' } : NOT_CONFIGURED,
        }),
      failed: (s) =>
        expect(s.context).toMatchObject({
          native: FAILED,
          ddex: tokenConfigured ? FAILED : NOT_CONFIGURED,
        }),
    },
  });
}

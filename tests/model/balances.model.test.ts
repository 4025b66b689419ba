import { expect } from 'vitest';
import { balanceCopy } from '../../src/copy/index.ts';
import { balancesMachine } from '../../src/machines/balances.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel } from './support/index.ts';

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const toasts: ToastRequest[] = [];

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
      idle: (s) => expect(s.context).toMatchObject({ address: null, nativeBalance: '', ddexBalance: '' }),
      loading: (s) => expect(s.hasTag('loading')).toBe(true),
      loaded: (s) =>
        expect(s.context).toMatchObject({
          nativeBalance: '0.75',
          ddexBalance: tokenConfigured ? '12.5' : balanceCopy.configError,
        }),
      failed: (s) =>
        expect(s.context).toMatchObject({
          nativeBalance: balanceCopy.error,
          ddexBalance: tokenConfigured ? balanceCopy.error : balanceCopy.configError,
        }),
    },
  });
}

import { assign, type DoneActorEvent } from 'xstate';
import { dexCopy } from '../../copy/dex.ts';
import { type Address, type DexCall } from '../../domain/dex.ts';
import type { Hex } from '../../domain/token.ts';

import { dexSendWords } from './dex-words.ts';
import { swapToasts } from './swap-toasts.ts';
import { amountIn } from './swap-checks.ts';
import type { SwapOrder } from './swap-types.ts';
import { swapSetup, swapTags, toast } from './swap.setup.ts';

// The swap machine's two transactions, an approval and the swap itself: the call built, the
// wallet's prompt, then the receipt (swap.machine.ts holds the chart).

export const approvingState = swapSetup.createStateConfig({
  on: { 'wallet.changed': { actions: 'takeWallet' } },
  initial: 'preparing',
  states: {
    preparing: {
      tags: [swapTags.waiting],
      invoke: {
        id: 'approvalCall',
        src: 'approvalCall',
        input: ({ context }) => ({
          owner: context.account as Address,
          amount: amountIn(context) ?? 0n,
          unlimited: context.unlimitedApproval,
        }),
        onDone: {
          target: 'waitingForWallet',
          actions: assign({ call: ({ event }: { event: DoneActorEvent<DexCall> }) => event.output }),
        },
        onError: {
          target: '#swap.routing',
          actions: { type: 'showToast', params: ({ event }) => swapToasts.approvalFailed(event.error) },
        },
      },
    },
    waitingForWallet: {
      tags: [swapTags.waiting],
      entry: toast(swapToasts.approvalPrompt),
      invoke: {
        id: 'sendApproval',
        src: 'sendTransaction',
        input: ({ context }) => context.call as DexCall,
        onDone: { target: 'pending', actions: assign({ hash: ({ event }) => event.output }) },
        onError: [
          { guard: 'rejected', target: '#swap.routing', actions: toast(swapToasts.approvalRejected) },
          {
            target: '#swap.routing',
            actions: {
              type: 'showToast',
              params: ({ event }) => swapToasts.approvalNotSent(event.error),
            },
          },
        ],
      },
    },
    pending: {
      tags: [swapTags.pending],
      entry: {
        type: 'showToast',
        params: ({ context }) => swapToasts.pending(dexCopy.approvalPending, context),
      },
      invoke: {
        id: 'confirmApproval',
        src: 'confirmApproval',
        // The account that sent the approval, whatever the wallet has switched to since.
        input: ({ context }) => ({ hash: context.hash as Hex, owner: context.call?.from as Address }),
        onDone: {
          target: '#swap.routing',
          actions: [
            assign({
              holdings: ({ context, event }) =>
                context.holdings && { ...context.holdings, allowance: event.output },
            }),
            { type: 'showToast', params: ({ context }) => swapToasts.approved(context) },
          ],
        },
        onError: {
          target: '#swap.routing',
          actions: { type: 'showToast', params: ({ event }) => swapToasts.approvalFailed(event.error) },
        },
      },
    },
  },
});

export const swappingState = swapSetup.createStateConfig({
  on: { 'wallet.changed': { actions: 'takeWallet' } },
  initial: 'preparing',
  states: {
    preparing: {
      tags: [swapTags.waiting],
      invoke: {
        id: 'swapCall',
        src: 'swapCall',
        input: ({ context }) => ({
          ...(context.order as SwapOrder),
          account: context.account as Address,
        }),
        onDone: {
          target: 'waitingForWallet',
          actions: assign({ call: ({ event }: { event: DoneActorEvent<DexCall> }) => event.output }),
        },
        onError: { target: '#swap.failed', actions: 'takeFailure' },
      },
    },
    waitingForWallet: {
      tags: [swapTags.waiting],
      entry: toast(swapToasts.swapPrompt),
      invoke: {
        id: 'sendSwap',
        src: 'sendTransaction',
        input: ({ context }) => context.call as DexCall,
        onDone: { target: 'pending', actions: assign({ hash: ({ event }) => event.output }) },
        onError: [
          { guard: 'rejected', target: '#swap.rejected' },
          {
            target: '#swap.failed',
            actions: assign({ problem: ({ event }) => dexSendWords(event.error) }),
          },
        ],
      },
    },
    pending: {
      tags: [swapTags.pending],
      entry: {
        type: 'showToast',
        params: ({ context }) => swapToasts.pending(dexCopy.swapPending, context),
      },
      invoke: {
        id: 'confirmSwap',
        src: 'confirmSwap',
        input: ({ context }) => ({
          hash: context.hash as Hex,
          side: context.order?.side ?? context.side,
        }),
        onDone: { target: '#swap.confirmed', actions: assign({ result: ({ event }) => event.output }) },
        onError: [
          { guard: 'reverted', target: '#swap.reverted', actions: 'takeFailure' },
          { target: '#swap.failed', actions: 'takeFailure' },
        ],
      },
    },
  },
});

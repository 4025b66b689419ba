import { assign, fromPromise, setup } from 'xstate';
import { dataProviderCopy, webhookCopy } from '../copy/index.ts';
import { messageOf, notProvided, showToast } from './shared.ts';

// The 'Tatum Webhooks (Demo)' section (docs/product.md#webhook-demo, #webhook-toasts):
// subscribe the connected wallet's address to the payment-processing
// function, list the subscriptions, delete the first one listed. One
// operation at a time: the buttons' events are ignored while one runs, so a
// view disables them unless the machine is `idle`.

/** What the demo needs of a subscription; the Tatum service's AddressWebhook has more. */
export type WebhookSummary = { id: string; address: string; url: string };

export type WebhooksInput = {
  /** The process-payments function's URL, which Tatum posts each transfer to. */
  callbackUrl: string;
};

export type WebhooksContext = {
  callbackUrl: string;
  /** The connected wallet, learned from the root's `wallet.changed`. */
  address: string | null;
  /** The subscription Delete First Hook is removing, while it does. */
  deletingId: string | null;
};

export type WebhooksEvent =
  | { type: 'wallet.changed'; address: string | null; chainId?: number | null }
  | { type: 'webhooks.create' }
  | { type: 'webhooks.list' }
  | { type: 'webhooks.deleteFirst' };

/**
 * The toast description of a failure: the service's message (the catalogue
 * string, e.g. 'Failed to create webhook via SDK') followed by its `detail`
 * (what Tatum said) when it has one; `fallback` when the failure says nothing.
 */
export function webhookFailure(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const message = messageOf(error, fallback);
  const detail = 'detail' in error && typeof error.detail === 'string' ? error.detail : null;
  return webhookCopy.failureDescription(message, detail === message ? null : detail);
}

export const webhooksMachine = setup({
  types: {} as { context: WebhooksContext; events: WebhooksEvent; input: WebhooksInput },
  actors: {
    createWebhook: fromPromise<{ id: string; address: string }, { address: string; url: string }>(
      notProvided('createWebhook'),
    ),
    listWebhooks: fromPromise<WebhookSummary[]>(notProvided('listWebhooks')),
    deleteWebhook: fromPromise<unknown, { id: string }>(notProvided('deleteWebhook')),
  },
  actions: {
    showToast,
    // The spec's 'Active Webhooks' toast says to check the console; src/main.tsx
    // provides the console logger, tests a recorder.
    logWebhooks: (_: unknown, params: { webhooks: WebhookSummary[] }) => void params,
  },
  guards: {
    hasWallet: ({ context }) => context.address !== null,
  },
}).createMachine({
  id: 'webhooks',
  context: ({ input }) => ({ callbackUrl: input.callbackUrl, address: null, deletingId: null }),
  initial: 'idle',
  on: {
    'wallet.changed': { actions: assign({ address: ({ event }) => event.address }) },
  },
  states: {
    idle: {
      entry: assign({ deletingId: null }),
      on: {
        'webhooks.create': [
          { guard: 'hasWallet', target: 'creating' },
          {
            actions: { type: 'showToast', params: { ...webhookCopy.walletRequired, variant: 'destructive' } },
          },
        ],
        'webhooks.list': 'listing',
        'webhooks.deleteFirst': 'deleting',
      },
    },
    creating: {
      entry: { type: 'showToast', params: webhookCopy.creating },
      invoke: {
        id: 'createWebhook',
        src: 'createWebhook',
        input: ({ context }) => ({ address: context.address ?? '', url: context.callbackUrl }),
        onDone: {
          target: 'idle',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: webhookCopy.created,
              description: webhookCopy.createdDescription(event.output.id, event.output.address),
            }),
          },
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: webhookCopy.creationFailed,
              description: webhookFailure(event.error, dataProviderCopy.createWebhookFailed),
              variant: 'destructive',
            }),
          },
        },
      },
    },
    listing: {
      entry: { type: 'showToast', params: webhookCopy.fetching },
      invoke: {
        id: 'listWebhooks',
        src: 'listWebhooks',
        onDone: [
          {
            guard: ({ event }) => event.output.length > 0,
            target: 'idle',
            actions: [
              {
                type: 'showToast',
                params: ({ event }) => ({
                  title: webhookCopy.active,
                  description: webhookCopy.activeDescription(event.output.length),
                }),
              },
              { type: 'logWebhooks', params: ({ event }) => ({ webhooks: event.output }) },
            ],
          },
          { target: 'idle', actions: { type: 'showToast', params: webhookCopy.noneActive } },
        ],
        onError: {
          target: 'idle',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: webhookCopy.listFailed,
              description: webhookFailure(event.error, dataProviderCopy.listWebhooksFailed),
              variant: 'destructive',
            }),
          },
        },
      },
    },
    deleting: {
      entry: { type: 'showToast', params: webhookCopy.deleting },
      initial: 'finding',
      states: {
        // Delete First Hook removes only the first listed webhook (docs/product.md#constants):
        // list afresh, so "first" is what the provider holds now.
        finding: {
          invoke: {
            id: 'listBeforeDelete',
            src: 'listWebhooks',
            onDone: [
              {
                guard: ({ event }) => event.output.length > 0,
                target: 'removing',
                actions: assign({ deletingId: ({ event }) => event.output[0]?.id ?? null }),
              },
              { target: '#webhooks.idle', actions: { type: 'showToast', params: webhookCopy.noneToDelete } },
            ],
            onError: {
              target: '#webhooks.idle',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: webhookCopy.deletionFailed,
                  description: webhookFailure(event.error, dataProviderCopy.listWebhooksFailed),
                  variant: 'destructive',
                }),
              },
            },
          },
        },
        removing: {
          invoke: {
            id: 'deleteWebhook',
            src: 'deleteWebhook',
            input: ({ context }) => ({ id: context.deletingId ?? '' }),
            onDone: {
              target: '#webhooks.idle',
              actions: {
                type: 'showToast',
                params: ({ context }) => ({
                  title: webhookCopy.deleted,
                  description: webhookCopy.deletedDescription(context.deletingId ?? ''),
                }),
              },
            },
            onError: {
              target: '#webhooks.idle',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: webhookCopy.deletionFailed,
                  description: webhookFailure(event.error, dataProviderCopy.deleteWebhookFailed),
                  variant: 'destructive',
                }),
              },
            },
          },
        },
      },
    },
  },
});

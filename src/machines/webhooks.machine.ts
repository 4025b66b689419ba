import { assign, fromPromise, setup } from 'xstate';
import { dataProviderCopy, webhookCopy } from '../copy/index.ts';
import { messageOf, notProvided, showToast } from './shared.ts';

// The 'Tatum Webhooks (Demo)' section (docs/product.md#webhook-demo, #webhook-toasts):
// subscribe the connected wallet's address to the payment-processing
// function, list the subscriptions, delete the first one listed. One
// operation at a time: the buttons' events are ignored while one runs, so a
// view disables them unless the machine is `idle`.
//
// The Tatum key stays on the server (the tatum-webhooks function), which acts
// only for the signed-in user and only on their proven wallet, and chooses
// where Tatum posts. So a visitor's or an unproven wallet's request is refused
// there, and this machine words the refusal ('Login Required', 'Wallet Not
// Linked') instead of a provider failure.

/** What the demo needs of a subscription; the Tatum service's AddressWebhook has more. */
export type WebhookSummary = { id: string; address: string; url: string };

export type WebhooksContext = {
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

/** Whether a failure is the server's refusal with this code (the Tatum service's `code`). */
function refusedAs(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

const loginRequiredToast = {
  type: 'showToast',
  params: { ...webhookCopy.loginRequired, variant: 'destructive' },
} as const;

export const webhooksMachine = setup({
  types: {} as { context: WebhooksContext; events: WebhooksEvent },
  actors: {
    createWebhook: fromPromise<{ id: string; address: string }, { address: string }>(
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
    notSignedIn: (_, params: { error: unknown }) => refusedAs(params.error, 'not_signed_in'),
    walletUnverified: (_, params: { error: unknown }) => refusedAs(params.error, 'wallet_unverified'),
  },
}).createMachine({
  id: 'webhooks',
  context: () => ({ address: null, deletingId: null }),
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
        input: ({ context }) => ({ address: context.address ?? '' }),
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
        onError: [
          {
            guard: { type: 'notSignedIn', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: loginRequiredToast,
          },
          {
            guard: { type: 'walletUnverified', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: {
              type: 'showToast',
              params: { ...webhookCopy.walletUnverified, variant: 'destructive' },
            },
          },
          {
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
        ],
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
        onError: [
          {
            guard: { type: 'notSignedIn', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: loginRequiredToast,
          },
          {
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
        ],
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
            onError: [
              {
                guard: { type: 'notSignedIn', params: ({ event }) => ({ error: event.error }) },
                target: '#webhooks.idle',
                actions: loginRequiredToast,
              },
              {
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
            ],
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

import { describe, expect } from 'vitest';
import type { EventObject } from 'xstate';
import { dataProviderCopy, webhookCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { webhooksMachine, type WebhookSummary } from '../../src/machines/webhooks.machine.ts';
import { TatumServiceError } from '../../src/services/tatum/types.ts';
import { outputOf } from '../support/model/recorders.ts';
import { describeModel, type Recorded } from '../support/model/index.ts';

const CALLBACK = 'http://127.0.0.1:54321/functions/v1/process-payments';
const WALLET = '0x1111111111111111111111111111111111111111';
const hooks: WebhookSummary[] = [
  { id: 'first', address: WALLET, url: CALLBACK },
  { id: 'second', address: WALLET, url: CALLBACK },
];

type Snapshot = ReturnType<typeof webhooksMachine.transition>;

const destructive = (toast: { title: string; description?: string }): ToastRequest => ({
  ...toast,
  variant: 'destructive',
});
const loginRequired = destructive(webhookCopy.loginRequired);

/**
 * Each failure the paths give an operation, with the toast it must end with: the server's
 * refusals in their own words, any other failure under the operation's title with the catalogue
 * words and what Tatum said.
 */
const failures = {
  createWebhook: [
    {
      error: new TatumServiceError('createAddressWebhook', { detail: 'HTTP 403' }),
      toast: destructive({
        title: webhookCopy.creationFailed,
        description: webhookCopy.failureDescription(dataProviderCopy.createWebhookFailed, 'HTTP 403'),
      }),
    },
    {
      error: new TatumServiceError('createAddressWebhook', { code: 'not_signed_in' }),
      toast: loginRequired,
    },
    {
      error: new TatumServiceError('createAddressWebhook', { code: 'wallet_unverified' }),
      toast: destructive(webhookCopy.walletUnverified),
    },
    // A failure that is no error at all says only what the operation could not do.
    {
      also: true,
      error: 'socket hang up',
      toast: destructive({
        title: webhookCopy.creationFailed,
        description: dataProviderCopy.createWebhookFailed,
      }),
    },
  ],
  listWebhooks: [
    {
      error: new TatumServiceError('listWebhooks'),
      toast: destructive({ title: webhookCopy.listFailed, description: dataProviderCopy.listWebhooksFailed }),
    },
    { error: new TatumServiceError('listWebhooks', { code: 'not_signed_in' }), toast: loginRequired },
    // Words and detail alike are said once.
    {
      also: true,
      error: Object.assign(new Error('HTTP 500'), { detail: 'HTTP 500' }),
      toast: destructive({ title: webhookCopy.listFailed, description: 'HTTP 500' }),
    },
  ],
  // Delete First Hook lists first: a failed listing is a failed deletion.
  listBeforeDelete: [
    {
      error: new TatumServiceError('listWebhooks', { detail: 'HTTP 502' }),
      toast: destructive({
        title: webhookCopy.deletionFailed,
        description: webhookCopy.failureDescription(dataProviderCopy.listWebhooksFailed, 'HTTP 502'),
      }),
    },
    { error: new TatumServiceError('listWebhooks', { code: 'not_signed_in' }), toast: loginRequired },
    {
      also: true,
      error: null,
      toast: destructive({
        title: webhookCopy.deletionFailed,
        description: dataProviderCopy.listWebhooksFailed,
      }),
    },
  ],
  deleteWebhook: [
    {
      error: new TatumServiceError('deleteWebhook', { detail: 'not found' }),
      toast: destructive({
        title: webhookCopy.deletionFailed,
        description: webhookCopy.failureDescription(dataProviderCopy.deleteWebhookFailed, 'not found'),
      }),
    },
  ],
};

/**
 * The failures of an operation for one model: the paths meet one payload per branch, so the
 * failures marked `also` (a second one of a branch) get a model of their own.
 */
function errorEvents(id: keyof typeof failures, also: boolean) {
  const chosen = failures[id].filter((failure) => ('also' in failure && failure.also) === also);
  return (chosen.length > 0 ? chosen : failures[id]).map(({ error }) => ({
    type: `xstate.error.actor.${id}`,
    error,
  }));
}

/** The toast a failed operation ends with, from the failure its event carries. */
function failureToast(event: EventObject & { error?: unknown }): ToastRequest | undefined {
  const id = event.type.replace('xstate.error.actor.', '') as keyof typeof failures;
  return failures[id].find((failure) => failure.error === event.error)?.toast;
}

/** The toast an operation ends with when it succeeds, from what its event carries. */
function successToast(event: EventObject, deleted: string | null): ToastRequest | undefined {
  const output = outputOf(event);
  switch (event.type) {
    case 'xstate.done.actor.createWebhook': {
      const { id, address } = output as { id: string; address: string };
      return { title: webhookCopy.created, description: webhookCopy.createdDescription(id, address) };
    }
    case 'xstate.done.actor.listWebhooks': {
      const { length } = output as WebhookSummary[];
      return length > 0
        ? { title: webhookCopy.active, description: webhookCopy.activeDescription(length) }
        : webhookCopy.noneActive;
    }
    case 'xstate.done.actor.listBeforeDelete':
      return webhookCopy.noneToDelete;
    case 'xstate.done.actor.deleteWebhook':
      return { title: webhookCopy.deleted, description: webhookCopy.deletedDescription(deleted ?? '') };
    default:
      return undefined;
  }
}

const model = (also: boolean) =>
  describeModel({
    name: 'webhooks',
    machine: webhooksMachine,
    input: {},
    // Every cycle-free path too: the wallet changing while an operation runs, one after another.
    simplePaths: !also,
    maxPaths: 150,
    events: {
      'wallet.changed': [
        { type: 'wallet.changed', address: WALLET, chainId: 11155111 },
        { type: 'wallet.changed', address: null, chainId: null },
      ],
      'xstate.done.actor.createWebhook': [
        { type: 'xstate.done.actor.createWebhook', output: { id: 'first', address: WALLET } },
      ],
      'xstate.error.actor.createWebhook': errorEvents('createWebhook', also),
      'xstate.done.actor.listWebhooks': [
        { type: 'xstate.done.actor.listWebhooks', output: hooks },
        { type: 'xstate.done.actor.listWebhooks', output: [] },
      ],
      'xstate.error.actor.listWebhooks': errorEvents('listWebhooks', also),
      'xstate.done.actor.listBeforeDelete': [
        { type: 'xstate.done.actor.listBeforeDelete', output: hooks },
        { type: 'xstate.done.actor.listBeforeDelete', output: [] },
      ],
      'xstate.error.actor.listBeforeDelete': errorEvents('listBeforeDelete', also),
      'xstate.done.actor.deleteWebhook': [{ type: 'xstate.done.actor.deleteWebhook', output: undefined }],
      'xstate.error.actor.deleteWebhook': errorEvents('deleteWebhook', also),
    },
    states: {
      '*': (snapshot: Snapshot, { before }) => {
        // Nothing is known of the wallet, nor being deleted, at first.
        if (!before) expect(snapshot.context).toEqual({ address: null, deletingId: null });
      },
      // An operation starts with its toast, and asks for the connected wallet's address.
      creating: (_, { before, toasts, inputOf }) => {
        if (!before?.matches('creating')) expect(toasts).toEqual([webhookCopy.creating]);
        expect(inputOf('createWebhook')).toEqual({ address: WALLET });
      },
      listing: (_, { before, toasts }) => {
        if (!before?.matches('listing')) expect(toasts).toEqual([webhookCopy.fetching]);
      },
      'deleting.finding': (_, { before, toasts }) => {
        if (!before?.matches('deleting')) expect(toasts).toEqual([webhookCopy.deleting]);
      },
      // Only the first one listed is deleted.
      'deleting.removing': (snapshot: Snapshot, { before, toasts, inputOf }) => {
        expect(snapshot.context.deletingId).toBe(hooks[0]?.id);
        expect(inputOf('deleteWebhook')).toEqual({ id: hooks[0]?.id });
        if (before?.matches({ deleting: 'finding' })) expect(toasts).toEqual([]);
      },
      idle: (snapshot: Snapshot, { before, shown, actions }) => {
        expect(snapshot.context.deletingId).toBeNull();
        // The console lines of this step.
        const lines = actions<{ webhooks: WebhookSummary[] }>('logWebhooks');
        const wasBusy = before !== undefined && !before.matches('idle');
        if (wasBusy) {
          // Every operation ends with exactly one toast that says how it went.
          expect(shown).toHaveLength(1);
          const [{ params, event }] = shown as [Recorded<ToastRequest>];
          const expected = event.type.startsWith('xstate.error.')
            ? failureToast(event)
            : successToast(event, before?.context.deletingId ?? null);
          expect(params).toEqual(expected);
        } else {
          // Create Hook without a wallet asks for one and does nothing else.
          for (const { params, event } of shown) {
            expect(event.type).toBe('webhooks.create');
            expect(snapshot.context.address).toBeNull();
            expect(params).toEqual(destructive(webhookCopy.walletRequired));
          }
        }
        // The active subscriptions go to the console, and only after a listing that found some.
        const found =
          wasBusy && shown[0]?.event.type === 'xstate.done.actor.listWebhooks'
            ? (outputOf(shown[0].event) as WebhookSummary[])
            : [];
        expect(lines.map((line) => line.params.webhooks)).toEqual(found.length > 0 ? [found] : []);
      },
    },
  });

model(false);
// The second failure of a branch: an error that is no Error, words equal to their detail, none at all.
// (A describe of its own, so that its paths are not named as the first model's.)
describe('the second failure of each branch', () => model(true));

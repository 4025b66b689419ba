import { expect } from 'vitest';
import { webhookCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { webhooksMachine, type WebhookSummary } from '../../src/machines/webhooks.machine.ts';
import { TatumServiceError } from '../../src/services/tatum/types.ts';
import { describeModel } from './support/index.ts';

const CALLBACK = 'http://127.0.0.1:54321/functions/v1/process-payments';
const WALLET = '0x1111111111111111111111111111111111111111';
const hooks: WebhookSummary[] = [
  { id: 'first', address: WALLET, url: CALLBACK },
  { id: 'second', address: WALLET, url: CALLBACK },
];

const toasts: ToastRequest[] = [];
let checked = 0;
const lastToast = () => toasts.at(-1);

describeModel({
  name: 'webhooks',
  machine: webhooksMachine,
  input: {},
  deferredActors: ['createWebhook', 'listWebhooks', 'listBeforeDelete', 'deleteWebhook'],
  provide: {
    actions: {
      showToast: (_, params: ToastRequest) => void toasts.push(params),
      logWebhooks: () => undefined,
    },
  },
  events: {
    'wallet.changed': [
      { type: 'wallet.changed', address: WALLET, chainId: 11155111 },
      { type: 'wallet.changed', address: null, chainId: null },
    ],
    'xstate.done.actor.createWebhook': [
      { type: 'xstate.done.actor.createWebhook', output: { id: 'first', address: WALLET } },
    ],
    'xstate.error.actor.createWebhook': [
      {
        type: 'xstate.error.actor.createWebhook',
        error: new TatumServiceError('createAddressWebhook', { detail: 'HTTP 403' }),
      },
      // The server's refusals: a visitor, and a wallet its user has not proven.
      {
        type: 'xstate.error.actor.createWebhook',
        error: new TatumServiceError('createAddressWebhook', { code: 'not_signed_in' }),
      },
      {
        type: 'xstate.error.actor.createWebhook',
        error: new TatumServiceError('createAddressWebhook', { code: 'wallet_unverified' }),
      },
    ],
    'xstate.done.actor.listWebhooks': [
      { type: 'xstate.done.actor.listWebhooks', output: hooks },
      { type: 'xstate.done.actor.listWebhooks', output: [] },
    ],
    'xstate.error.actor.listWebhooks': [
      {
        type: 'xstate.error.actor.listWebhooks',
        error: new TatumServiceError('listWebhooks'),
      },
      {
        type: 'xstate.error.actor.listWebhooks',
        error: new TatumServiceError('listWebhooks', { code: 'not_signed_in' }),
      },
    ],
    'xstate.done.actor.listBeforeDelete': [
      { type: 'xstate.done.actor.listBeforeDelete', output: hooks },
      { type: 'xstate.done.actor.listBeforeDelete', output: [] },
    ],
    'xstate.error.actor.listBeforeDelete': [
      {
        type: 'xstate.error.actor.listBeforeDelete',
        error: new TatumServiceError('listWebhooks'),
      },
      {
        type: 'xstate.error.actor.listBeforeDelete',
        error: new TatumServiceError('listWebhooks', { code: 'not_signed_in' }),
      },
    ],
    'xstate.done.actor.deleteWebhook': [{ type: 'xstate.done.actor.deleteWebhook', output: undefined }],
    'xstate.error.actor.deleteWebhook': [
      {
        type: 'xstate.error.actor.deleteWebhook',
        error: new TatumServiceError('deleteWebhook', { detail: 'not found' }),
      },
    ],
  },
  states: {
    '*': () => {
      // Informational toasts are default, failures (and the missing wallet) destructive.
      const failures: string[] = [
        webhookCopy.walletRequired.title,
        webhookCopy.creationFailed,
        webhookCopy.listFailed,
        webhookCopy.deletionFailed,
        webhookCopy.loginRequired.title,
        webhookCopy.walletUnverified.title,
      ];
      for (const toast of toasts.slice(checked)) {
        expect(toast.variant ?? 'default').toBe(failures.includes(toast.title) ? 'destructive' : 'default');
      }
      checked = toasts.length;
    },
    creating: () => expect(lastToast()).toEqual(webhookCopy.creating),
    listing: () => expect(lastToast()).toEqual(webhookCopy.fetching),
    'deleting.finding': () => expect(lastToast()).toEqual(webhookCopy.deleting),
    'deleting.removing': (snapshot) => expect(snapshot.context.deletingId).toBe('first'),
    idle: (snapshot) => expect(snapshot.context.deletingId).toBeNull(),
  },
});

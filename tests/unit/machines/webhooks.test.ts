import { describe, expect, it } from 'vitest';
import { dataProviderCopy, webhookCopy } from '../../../src/copy/index.ts';
import { webhooksMachine, type WebhookSummary } from '../../../src/machines/webhooks.machine.ts';
import { TatumServiceError } from '../../../src/services/tatum/types.ts';
import { settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const CALLBACK = 'http://127.0.0.1:54321/functions/v1/process-payments';
const WALLET = '0x1111111111111111111111111111111111111111';
const hook = (id: string): WebhookSummary => ({ id, address: WALLET, url: CALLBACK });

function setup() {
  const logged: WebhookSummary[][] = [];
  // The console log is the one action the composition root provides (src/app/provide-portal.ts).
  const h = machineHarness(webhooksMachine, {
    actions: {
      logWebhooks: (_: unknown, params: { webhooks: WebhookSummary[] }) => void logged.push(params.webhooks),
    },
  });
  const { actor, toasts } = h;
  const creates = h.calls<{ id: string; address: string }, { address: string }>('createWebhook');
  const lists = h.calls<WebhookSummary[]>('listWebhooks');
  const deletes = h.calls<unknown, { id: string }>('deleteWebhook');
  const state = () => h.snapshot().value;
  return { actor, toasts, logged, creates, lists, deletes, state };
}

const connect = (actor: ReturnType<typeof setup>['actor']) =>
  actor.send({ type: 'wallet.changed', address: WALLET, chainId: 11155111 });

describe('webhooks machine: Create Hook', () => {
  it('needs a connected wallet', () => {
    const { actor, toasts, creates, state } = setup();
    actor.send({ type: 'webhooks.create' });
    expect(toasts).toEqual([{ ...webhookCopy.walletRequired, variant: 'destructive' }]);
    expect(creates).toHaveLength(0);
    expect(state()).toBe('idle');
  });

  it('needs the wallet again after it disconnects', () => {
    const { actor, toasts, creates } = setup();
    connect(actor);
    actor.send({ type: 'wallet.changed', address: null, chainId: null });
    actor.send({ type: 'webhooks.create' });
    expect(creates).toHaveLength(0);
    expect(toasts).toEqual([{ ...webhookCopy.walletRequired, variant: 'destructive' }]);
  });

  it('asks the server to subscribe the wallet address, and shows the new id', async () => {
    const { actor, toasts, creates, state } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    expect(state()).toBe('creating');
    expect(toasts).toEqual([webhookCopy.creating]);
    // Where Tatum posts is the server's choice now, not the browser's.
    expect(creates[0]?.input).toEqual({ address: WALLET });

    creates[0]?.resolve({ id: 'sub-1', address: WALLET });
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.created,
      description: webhookCopy.createdDescription('sub-1', WALLET),
    });
  });

  it('shows the service message and what Tatum said when it fails', async () => {
    const { actor, toasts, creates, state } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    creates[0]?.reject(
      new TatumServiceError('createAddressWebhook', {
        detail: 'Subscription for type ADDRESS_EVENT on the address already exists.',
      }),
    );
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.creationFailed,
      description: webhookCopy.failureDescription(
        dataProviderCopy.createWebhookFailed,
        'Subscription for type ADDRESS_EVENT on the address already exists.',
      ),
      variant: 'destructive',
    });
    expect(toasts.at(-1)?.description).toContain(dataProviderCopy.createWebhookFailed);
    expect(toasts.at(-1)?.description).toContain('already exists');
  });

  it('shows the message alone when there is no detail, and the catalogue string when there is nothing', async () => {
    const { actor, toasts, creates } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    creates[0]?.reject(new TatumServiceError('createAddressWebhook'));
    await settle();
    expect(toasts.at(-1)?.description).toBe(dataProviderCopy.createWebhookFailed);

    actor.send({ type: 'webhooks.create' });
    creates[1]?.reject({ weird: true });
    await settle();
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.creationFailed,
      description: dataProviderCopy.createWebhookFailed,
      variant: 'destructive',
    });
  });

  it('leaves out a detail that is not text', async () => {
    const { actor, toasts, creates } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    creates[0]?.reject(Object.assign(new Error('Tatum refused'), { detail: 403 }));
    await settle();
    expect(toasts.at(-1)?.description).toBe('Tatum refused');
  });
});

describe('webhooks machine: the server acts for a signed-in user and a proven wallet only', () => {
  const notSignedIn = (operation: 'createAddressWebhook' | 'listWebhooks') =>
    new TatumServiceError(operation, { code: 'not_signed_in', detail: 'Invalid JWT' });
  const loginRequired = { ...webhookCopy.loginRequired, variant: 'destructive' };

  it('asks a visitor to log in when Create Hook is refused for want of a session', async () => {
    const { actor, toasts, creates, state } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    creates[0]?.reject(notSignedIn('createAddressWebhook'));
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual(loginRequired);
  });

  it('asks to link the wallet when the server finds it unproven', async () => {
    const { actor, toasts, creates } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    creates[0]?.reject(new TatumServiceError('createAddressWebhook', { code: 'wallet_unverified' }));
    await settle();
    expect(toasts.at(-1)).toEqual({ ...webhookCopy.walletUnverified, variant: 'destructive' });
  });

  it("keeps the spec's wallet rule first: no wallet, no request, whoever is signed in", () => {
    const { actor, toasts, creates } = setup();
    actor.send({ type: 'webhooks.create' });
    expect(creates).toHaveLength(0);
    expect(toasts).toEqual([{ ...webhookCopy.walletRequired, variant: 'destructive' }]);
  });

  it('asks a visitor to log in for List Hooks and Delete First Hook', async () => {
    const { actor, toasts, lists, deletes } = setup();
    actor.send({ type: 'webhooks.list' });
    lists[0]?.reject(notSignedIn('listWebhooks'));
    await settle();
    expect(toasts.at(-1)).toEqual(loginRequired);

    actor.send({ type: 'webhooks.deleteFirst' });
    lists[1]?.reject(notSignedIn('listWebhooks'));
    await settle();
    expect(toasts.at(-1)).toEqual(loginRequired);
    expect(deletes).toHaveLength(0);
  });
});

describe('webhooks machine: List Hooks', () => {
  it('counts the active subscriptions and logs them for the console', async () => {
    const { actor, toasts, logged, lists, state } = setup();
    actor.send({ type: 'webhooks.list' });
    expect(state()).toBe('listing');
    expect(toasts).toEqual([webhookCopy.fetching]);
    lists[0]?.resolve([hook('a'), hook('b')]);
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.active,
      description: webhookCopy.activeDescription(2),
    });
    expect(logged).toEqual([[hook('a'), hook('b')]]);
  });

  it('says when there are none, and logs nothing', async () => {
    const { actor, toasts, logged, lists } = setup();
    actor.send({ type: 'webhooks.list' });
    lists[0]?.resolve([]);
    await settle();
    expect(toasts.at(-1)).toEqual(webhookCopy.noneActive);
    expect(logged).toEqual([]);
  });

  it('needs no wallet', () => {
    const { actor, lists } = setup();
    actor.send({ type: 'webhooks.list' });
    expect(lists).toHaveLength(1);
  });

  it('shows the failure with its message', async () => {
    const { actor, toasts, lists, state } = setup();
    actor.send({ type: 'webhooks.list' });
    lists[0]?.reject(new TatumServiceError('listWebhooks', { detail: 'HTTP 401' }));
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.listFailed,
      description: webhookCopy.failureDescription(dataProviderCopy.listWebhooksFailed, 'HTTP 401'),
      variant: 'destructive',
    });
  });
});

describe('webhooks machine: Delete First Hook', () => {
  it('lists afresh and deletes only the first one listed', async () => {
    const { actor, toasts, lists, deletes, state } = setup();
    actor.send({ type: 'webhooks.deleteFirst' });
    expect(toasts).toEqual([webhookCopy.deleting]);
    expect(actor.getSnapshot().matches({ deleting: 'finding' })).toBe(true);
    lists[0]?.resolve([hook('first'), hook('second')]);
    await settle();
    expect(actor.getSnapshot().matches({ deleting: 'removing' })).toBe(true);
    expect(deletes.map((d) => d.input)).toEqual([{ id: 'first' }]);

    deletes[0]?.resolve(undefined);
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.deleted,
      description: webhookCopy.deletedDescription('first'),
    });
    expect(deletes).toHaveLength(1);
    expect(actor.getSnapshot().context.deletingId).toBeNull();
  });

  it('says there is nothing to delete', async () => {
    const { actor, toasts, lists, deletes, state } = setup();
    actor.send({ type: 'webhooks.deleteFirst' });
    lists[0]?.resolve([]);
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual(webhookCopy.noneToDelete);
    expect(deletes).toHaveLength(0);
  });

  it('shows a failed deletion with its message', async () => {
    const { actor, toasts, lists, deletes, state } = setup();
    actor.send({ type: 'webhooks.deleteFirst' });
    lists[0]?.resolve([hook('first')]);
    await settle();
    deletes[0]?.reject(
      new TatumServiceError('deleteWebhook', {
        detail: 'Subscription not found',
        code: 'subscription.not.found',
      }),
    );
    await settle();
    expect(state()).toBe('idle');
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.deletionFailed,
      description: webhookCopy.failureDescription(
        dataProviderCopy.deleteWebhookFailed,
        'Subscription not found',
      ),
      variant: 'destructive',
    });
  });

  it('reports a failed listing as a failed deletion', async () => {
    const { actor, toasts, lists, deletes } = setup();
    actor.send({ type: 'webhooks.deleteFirst' });
    lists[0]?.reject(new TatumServiceError('listWebhooks'));
    await settle();
    expect(deletes).toHaveLength(0);
    expect(toasts.at(-1)).toEqual({
      title: webhookCopy.deletionFailed,
      description: dataProviderCopy.listWebhooksFailed,
      variant: 'destructive',
    });
  });
});

describe('webhooks machine: one operation at a time', () => {
  it('ignores every button while an operation runs, and takes them again afterwards', async () => {
    const { actor, toasts, creates, lists, deletes } = setup();
    connect(actor);
    actor.send({ type: 'webhooks.create' });
    actor.send({ type: 'webhooks.create' });
    actor.send({ type: 'webhooks.list' });
    actor.send({ type: 'webhooks.deleteFirst' });
    expect([creates.length, lists.length, deletes.length]).toEqual([1, 0, 0]);
    expect(toasts).toEqual([webhookCopy.creating]);
    creates[0]?.resolve({ id: 'sub-1', address: WALLET });
    await settle();

    actor.send({ type: 'webhooks.list' });
    actor.send({ type: 'webhooks.deleteFirst' });
    actor.send({ type: 'webhooks.create' });
    expect([creates.length, lists.length, deletes.length]).toEqual([1, 1, 0]);
    lists[0]?.resolve([]);
    await settle();

    actor.send({ type: 'webhooks.deleteFirst' });
    actor.send({ type: 'webhooks.list' });
    lists[1]?.resolve([hook('x')]);
    await settle();
    actor.send({ type: 'webhooks.create' });
    expect([creates.length, lists.length, deletes.length]).toEqual([1, 2, 1]);
  });

  it('follows the wallet while busy, for the next Create Hook', async () => {
    const { actor, creates, lists } = setup();
    actor.send({ type: 'webhooks.list' });
    connect(actor);
    lists[0]?.resolve([]);
    await settle();
    actor.send({ type: 'webhooks.create' });
    // Where Tatum posts is the server's choice now, not the browser's.
    expect(creates[0]?.input).toEqual({ address: WALLET });
  });
});

import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { portalCopy, shortAddress, walletCopy, walletProofCopy, webhookCopy } from '../../src/copy/index.ts';
import { webhooksMachine, type WebhookSummary } from '../../src/machines/webhooks.machine.ts';
import { TatumServiceError } from '../../src/services/tatum/types.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import { admin, toast } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { gateRequests, under, type RequestGate } from '../support/ui/stack-requests.ts';
import { openWorld, pathUser, walletOf, type PortalWorld } from '../support/ui/world.ts';

// The 'Tatum Webhooks (Demo)' section through the portal, against the tatum-webhooks function and
// the stack's Tatum emulator. Who is at the page decides how the server answers, so each path gets
// the world its refusals need: a visitor with a connected wallet (not_signed_in), a signed-in user
// whose wallet proof was declined (wallet_unverified), or the owner of the proven uiWebhooks wallet,
// with one subscription already made when the path lists or deletes one. Every call of the function
// is held until the next step lets it go or fails it as a stopped gateway would.

const watched = e2eAccount('uiWebhooks');
const TATUM_WEBHOOKS = `${gatewayFor('full').url}/functions/v1/tatum-webhooks`;
const CALLBACK = `${gatewayFor('full').url}/functions/v1/process-payments`;
const hooks: WebhookSummary[] = [{ id: 'first', address: watched.address, url: CALLBACK }];

type Kind = 'visitor' | 'unproven' | 'owner';
type Method = 'GET' | 'POST' | 'DELETE';
/** What the step that ended an operation told the user. */
type Told = { title: string; description?: string | RegExp };

type WebhooksWorld = PortalWorld & {
  kind: Kind;
  /** The subscription the owner made before the path started, if the path needs one. */
  hookId: string | null;
  /** The calls of tatum-webhooks the current state waits on, by HTTP method. */
  calls: Partial<Record<Method, RequestGate>>;
  told: Told | null;
};

const refusal = (operation: 'createAddressWebhook' | 'listWebhooks', code: string) =>
  new TatumServiceError(operation, { code });
const codeOf = (event: AnyEventObject) =>
  ((event as { error?: { code?: unknown } }).error?.code as string | null | undefined) ?? null;
const listed = (event: AnyEventObject) => ((event as { output?: unknown[] }).output ?? []).length;
const addressOf = (event: AnyEventObject) => (event as { address?: string | null }).address ?? null;
const hasWallet = (context: unknown) => (context as { address: string | null }).address !== null;

const demo = (world: WebhooksWorld) => world.page.getByRole('region', { name: webhookCopy.section });
const demoButtons = (world: WebhooksWorld) =>
  [webhookCopy.create, webhookCopy.list, webhookCopy.deleteFirst].map((name) =>
    demo(world).getByRole('button', { name, exact: true }),
  );

/** Holds the page's next call of tatum-webhooks with this HTTP method. */
async function holdCall(world: WebhooksWorld, method: Method) {
  world.calls[method] = await gateRequests(world.page, under(TATUM_WEBHOOKS), {
    matches: (request) => request.method() === method,
  });
}

async function heldCall(world: WebhooksWorld, method: Method): Promise<RequestGate> {
  const gate = world.calls[method];
  if (!gate) throw new Error(`no ${method} of tatum-webhooks is held`);
  await gate.arrived;
  return gate;
}

/** The owner's profile holds the proven wallet (an earlier path's user gives it up first). */
async function proveWallet(userId: string, email: string) {
  const db = admin();
  const freed = await db
    .from('profiles')
    .update({ wallet_address: null, wallet_verified_at: null })
    .ilike('wallet_address', watched.address);
  if (freed.error) throw new Error(`could not free the wallet: ${freed.error.message}`);
  const linked = await db.from('profiles').upsert({
    id: userId,
    email,
    wallet_address: watched.address,
    wallet_verified_at: new Date().toISOString(),
  });
  if (linked.error) throw new Error(`could not link the wallet: ${linked.error.message}`);
}

/** An operation is running: its toast shows and every button of the demo waits. */
async function busyWith(world: WebhooksWorld, title: string) {
  await world.page.getByRole('status').getByText(title, { exact: true }).waitFor();
  await expect.poll(() => demo(world).getAttribute('aria-busy')).toBe('true');
  for (const each of demoButtons(world)) expect(await each.isDisabled()).toBe(true);
}

describeUiModel({
  name: 'webhooks',
  machine: webhooksMachine,
  events: {
    'wallet.changed': [
      { type: 'wallet.changed', address: watched.address, chainId: 31337 },
      { type: 'wallet.changed', address: null, chainId: null },
    ],
    'xstate.done.actor.createWebhook': [
      { type: 'xstate.done.actor.createWebhook', output: { id: 'first', address: watched.address } },
    ],
    'xstate.error.actor.createWebhook': [
      { type: 'xstate.error.actor.createWebhook', error: new TatumServiceError('createAddressWebhook') },
      { type: 'xstate.error.actor.createWebhook', error: refusal('createAddressWebhook', 'not_signed_in') },
      {
        type: 'xstate.error.actor.createWebhook',
        error: refusal('createAddressWebhook', 'wallet_unverified'),
      },
    ],
    'xstate.done.actor.listWebhooks': [
      { type: 'xstate.done.actor.listWebhooks', output: hooks },
      { type: 'xstate.done.actor.listWebhooks', output: [] },
    ],
    'xstate.error.actor.listWebhooks': [
      { type: 'xstate.error.actor.listWebhooks', error: new TatumServiceError('listWebhooks') },
      { type: 'xstate.error.actor.listWebhooks', error: refusal('listWebhooks', 'not_signed_in') },
    ],
    'xstate.done.actor.listBeforeDelete': [
      { type: 'xstate.done.actor.listBeforeDelete', output: hooks },
      { type: 'xstate.done.actor.listBeforeDelete', output: [] },
    ],
    'xstate.error.actor.listBeforeDelete': [
      { type: 'xstate.error.actor.listBeforeDelete', error: new TatumServiceError('listWebhooks') },
      { type: 'xstate.error.actor.listBeforeDelete', error: refusal('listWebhooks', 'not_signed_in') },
    ],
    'xstate.done.actor.deleteWebhook': [{ type: 'xstate.done.actor.deleteWebhook', output: undefined }],
    'xstate.error.actor.deleteWebhook': [
      { type: 'xstate.error.actor.deleteWebhook', error: new TatumServiceError('deleteWebhook') },
    ],
  },
  // The views read where the machine is and whether a wallet is connected.
  serializeState: (state) => JSON.stringify([state.value, hasWallet(state.context)]),

  async open(path) {
    const refused = (code: string) => path.events.some((event) => codeOf(event) === code);
    const kind: Kind = refused('not_signed_in')
      ? 'visitor'
      : refused('wallet_unverified')
        ? 'unproven'
        : 'owner';
    const opened = (portal: PortalWorld, hookId: string | null = null): WebhooksWorld =>
      Object.assign(portal, { kind, hookId, calls: {}, told: null });
    if (kind === 'visitor') return opened(await openWorld({ wallet: { account: watched } }));
    const user = await pathUser();
    if (kind === 'unproven') {
      const world = opened(await openWorld({ wallet: { account: watched }, signedInAs: user }));
      // This user's wallet is never proven: the wallet declines to sign when it is connected.
      await walletOf(world).rejectNextOf('personal_sign', 4001);
      return world;
    }
    await proveWallet(user.id, user.email);
    const needsHook = path.events.some(
      (event) =>
        (event.type === 'xstate.done.actor.listWebhooks' ||
          event.type === 'xstate.done.actor.listBeforeDelete') &&
        listed(event) > 0,
    );
    let hookId: string | null = null;
    if (needsHook) {
      const { data, error } = await user.client.functions.invoke<{ webhook: { id: string } }>(
        'tatum-webhooks',
        {
          method: 'POST',
          body: { address: watched.address },
        },
      );
      if (error || !data) throw new Error(`could not subscribe the wallet: ${String(error)}`);
      hookId = data.webhook.id;
    }
    return opened(await openWorld({ wallet: { account: watched }, signedInAs: user }), hookId);
  },

  views: {
    idle: async (world, state) => {
      if (world.kind === 'visitor' && !hasWallet(state.context)) {
        // A visitor without a wallet has no wallet card, so no demo.
        await expect.poll(() => button(world.page, walletCopy.connectWallet).isEnabled()).toBe(true);
        expect(await demo(world).count()).toBe(0);
      } else {
        for (const each of demoButtons(world)) await expect.poll(() => each.isEnabled()).toBe(true);
      }
      const { told } = world;
      if (!told) return;
      await toast(world.page, told.title).waitFor();
      if (told.description)
        await world.page.locator('[aria-live]').getByText(told.description, { exact: true }).waitFor();
      world.told = null;
    },
    creating: (world) => busyWith(world, webhookCopy.creating.title),
    listing: (world) => busyWith(world, webhookCopy.fetching.title),
    deleting: (world) => busyWith(world, webhookCopy.deleting.title),
    // Both steps of Delete First Hook look alike; which call waits tells them apart.
    'deleting.finding': async (world) => void (await heldCall(world, 'GET')),
    'deleting.removing': async (world) => {
      const held = await heldCall(world, 'DELETE');
      expect(held.held()).toBe(1);
    },
  },

  arrange: {
    creating: (world) => holdCall(world, 'POST'),
    listing: (world) => holdCall(world, 'GET'),
    'deleting.finding': (world) => holdCall(world, 'GET'),
    'deleting.removing': (world) => holdCall(world, 'DELETE'),
  },

  causes: {
    'wallet.changed': async (world, event) => {
      world.told = null;
      const { page } = world;
      if (addressOf(event) === null) {
        await button(page, portalCopy.disconnectWallet).click();
        return;
      }
      const signedIn = world.kind !== 'visitor';
      await button(page, signedIn ? walletCopy.connectYourWallet : walletCopy.connectWallet).click();
      await page.getByText(shortAddress(watched.address), { exact: true }).first().waitFor();
      // The declined proof speaks before anything the demo says.
      if (world.kind === 'unproven') await toast(page, walletProofCopy.notLinked).waitFor();
    },
    'webhooks.create': async (world, _event, from) => {
      if (!hasWallet(from.context)) world.told = { ...webhookCopy.walletRequired };
      await demo(world).getByRole('button', { name: webhookCopy.create, exact: true }).click();
    },
    'webhooks.list': (world) =>
      demo(world).getByRole('button', { name: webhookCopy.list, exact: true }).click(),
    'webhooks.deleteFirst': (world) =>
      demo(world).getByRole('button', { name: webhookCopy.deleteFirst, exact: true }).click(),

    'xstate.done.actor.createWebhook': async (world) => {
      world.told = {
        title: webhookCopy.created,
        description: new RegExp(`^ID: \\S+, monitoring ${watched.address}$`, 'i'),
      };
      await (await heldCall(world, 'POST')).release();
    },
    'xstate.error.actor.createWebhook': async (world, event) => {
      const code = codeOf(event);
      if (code === 'not_signed_in') world.told = { ...webhookCopy.loginRequired };
      else if (code === 'wallet_unverified') world.told = { ...webhookCopy.walletUnverified };
      else world.told = { title: webhookCopy.creationFailed };
      await settleCall(world, 'POST', code);
    },
    'xstate.done.actor.listWebhooks': async (world, event) => {
      const count = listed(event);
      world.told =
        count > 0
          ? { title: webhookCopy.active, description: webhookCopy.activeDescription(count) }
          : { ...webhookCopy.noneActive };
      await (await heldCall(world, 'GET')).release();
    },
    'xstate.error.actor.listWebhooks': async (world, event) => {
      const code = codeOf(event);
      world.told =
        code === 'not_signed_in' ? { ...webhookCopy.loginRequired } : { title: webhookCopy.listFailed };
      await settleCall(world, 'GET', code);
    },
    // Hooks found: the step goes on to removing, whose own call is held (arranged) and told below.
    'xstate.done.actor.listBeforeDelete': async (world, event) => {
      if (listed(event) === 0) world.told = { ...webhookCopy.noneToDelete };
      await (await heldCall(world, 'GET')).release();
    },
    'xstate.error.actor.listBeforeDelete': async (world, event) => {
      const code = codeOf(event);
      world.told =
        code === 'not_signed_in' ? { ...webhookCopy.loginRequired } : { title: webhookCopy.deletionFailed };
      await settleCall(world, 'GET', code);
    },
    'xstate.done.actor.deleteWebhook': async (world) => {
      world.told = {
        title: webhookCopy.deleted,
        description: webhookCopy.deletedDescription(world.hookId ?? ''),
      };
      await (await heldCall(world, 'DELETE')).release();
    },
    'xstate.error.actor.deleteWebhook': async (world) => {
      world.told = { title: webhookCopy.deletionFailed };
      await (await heldCall(world, 'DELETE')).fail();
    },
  },
  can: (event, state) => {
    if (event.type === 'wallet.changed') return (addressOf(event) === null) === hasWallet(state.context);
    // A visitor sees the demo only with a connected wallet, so only then can the server refuse them.
    if (codeOf(event) === 'not_signed_in') return hasWallet(state.context);
    return true;
  },
});

/** A refusal is the server's own answer to who is asking; anything else is a stopped gateway. */
async function settleCall(world: WebhooksWorld, method: Method, code: string | null) {
  const held = await heldCall(world, method);
  if (code === null) await held.fail();
  else await held.release();
}

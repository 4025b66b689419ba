import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { authCopy, unsubscribeCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { unsubscribeMachine } from '../../src/machines/unsubscribe.machine.ts';
import { makeUnsubscribeToken } from '../../supabase/functions/_shared/unsubscribe-token.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { admin } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import {
  acting,
  failHeld,
  hold,
  recordToasts,
  release,
  sawToast,
  type StepWorld,
} from '../support/ui/session.ts';
import { openWorld, pathUser } from '../support/ui/world.ts';

// The unsubscribe link's chart through the portal (docs/product.md#email-alerts): a visitor opens
// the link an alert mail carries (its token signed as the gateway signs them, for a user who asked
// for bot alerts by email), the portal asks, and the real email-unsubscribe function turns bot
// emails off, or cannot be reached (the request failed as a stopped server fails it), which leaves
// the question open.

type UnsubscribeWorld = StepWorld & { userId: string };

const dialogOf = (page: Page) => page.getByRole('dialog', { name: dialogCopy.unsubscribe.title });
const button = (page: Page, name: string) => dialogOf(page).getByRole('button', { name, exact: true });

async function emailPreferences(userId: string): Promise<unknown> {
  const { data, error } = await admin()
    .from('profiles')
    .select('notification_preferences')
    .eq('id', userId)
    .single();
  if (error) throw new Error(`could not read the profile: ${error.message}`);
  return (data.notification_preferences as { email?: unknown }).email;
}

/**
 * The page a bot alert's link opens, for a user who asked for both kinds by email; its token is
 * signed with `secret` (the gateway's, or another, for a link the project did not make).
 */
async function openMailLink(secret: string): Promise<UnsubscribeWorld> {
  const user = await pathUser();
  const { error } = await admin()
    .from('profiles')
    .upsert({ id: user.id, notification_preferences: { email: { transfers: true, bots: true } } });
  if (error) throw new Error(`could not store the preferences: ${error.message}`);
  const token = await makeUnsubscribeToken(secret, user.id, 'bots');
  const portal = await openWorld({});
  const world: UnsubscribeWorld = { ...portal, held: null, mark: 0, step: null, userId: user.id };
  await recordToasts(world);
  await world.page.goto(`${portal.portal.appUrl}/?unsubscribe=${token}`, { waitUntil: 'load' });
  return world;
}

function toastOf(world: StepWorld): string | null {
  switch (world.step?.event.type) {
    case 'xstate.done.actor.unsubscribeEmail':
      return unsubscribeCopy.done('bots').title;
    case 'xstate.error.actor.unsubscribeEmail':
      return unsubscribeCopy.failed;
    default:
      return null;
  }
}

describeUiModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: 'a-token' },
  events: {
    'xstate.done.actor.unsubscribeEmail': [{ type: 'xstate.done.actor.unsubscribeEmail', output: 'bots' }],
    'xstate.error.actor.unsubscribeEmail': [
      { type: 'xstate.error.actor.unsubscribeEmail', error: new Error('Failed to send a request') },
    ],
  },

  open: () => openMailLink(gatewayFor('full').emailUnsubscribeSecret),

  views: {
    asking: async (world) => {
      await dialogOf(world.page)
        .getByText(dialogCopy.unsubscribe.question('bots'), { exact: true })
        .waitFor();
      await expect
        .poll(() => button(world.page, dialogCopy.unsubscribe.stop).getAttribute('aria-disabled'))
        .toBeNull();
      // The token left the address bar as the page started.
      expect(world.page.url()).not.toContain('unsubscribe');
      // Nothing is turned off before the person confirms.
      expect(await emailPreferences(world.userId)).toEqual({ transfers: true, bots: true });
    },
    sending: (world) => button(world.page, dialogCopy.unsubscribe.stopping).waitFor(),
    idle: async (world) => {
      await expect.poll(() => world.page.getByRole('dialog').count()).toBe(0);
      // Bot emails off, and only those, when the function answered; untouched otherwise.
      const stopped = world.step?.event.type === 'xstate.done.actor.unsubscribeEmail';
      expect(await emailPreferences(world.userId)).toEqual({ transfers: true, bots: !stopped });
    },
    '*': async (world) => {
      const toast = toastOf(world);
      if (toast) await sawToast(world.page, toast, world.mark);
    },
  },

  arrange: {
    sending: (world) => hold(world, /\/functions\/v1\/email-unsubscribe/, 'POST'),
  },

  causes: {
    'unsubscribe.confirm': acting((world) => button(world.page, dialogCopy.unsubscribe.stop).click()),
    'unsubscribe.dismiss': acting((world) => button(world.page, dialogCopy.unsubscribe.keep).click()),
    'xstate.done.actor.unsubscribeEmail': acting(release),
    'xstate.error.actor.unsubscribeEmail': acting(failHeld),
  },

  reasons: {
    'unsubscribe.starting --always#0--> unsubscribe.idle': 'the map below opens the page without a link',
  },
});

// A link the project did not make (signed with another secret): the real function refuses it, and
// the page gives the link up with the server's words rather than offering to try again.
describeUiModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: 'a-token' },
  events: {
    'xstate.error.actor.unsubscribeEmail': [
      {
        type: 'xstate.error.actor.unsubscribeEmail',
        error: { name: 'BackendError', message: 'refused', code: 'invalid_token', status: 400 },
      },
    ],
  },

  open: () => openMailLink('a secret that is not the project’s'),

  views: {
    asking: (world) =>
      dialogOf(world.page).getByText(dialogCopy.unsubscribe.question('bots'), { exact: true }).waitFor(),
    sending: (world) => button(world.page, dialogCopy.unsubscribe.stopping).waitFor(),
    idle: async (world) => {
      await expect.poll(() => world.page.getByRole('dialog').count()).toBe(0);
      expect(await emailPreferences(world.userId)).toEqual({ transfers: true, bots: true });
    },
    '*': async (world) => {
      if (world.step?.event.type === 'xstate.error.actor.unsubscribeEmail') {
        await sawToast(world.page, unsubscribeCopy.failed, world.mark);
      }
    },
  },

  arrange: {
    sending: (world) => hold(world, /\/functions\/v1\/email-unsubscribe/, 'POST'),
  },

  causes: {
    'unsubscribe.confirm': acting((world) => button(world.page, dialogCopy.unsubscribe.stop).click()),
    'unsubscribe.dismiss': acting((world) => button(world.page, dialogCopy.unsubscribe.keep).click()),
    // The held request goes on to the real function, which refuses the forged link.
    'xstate.error.actor.unsubscribeEmail': acting(release),
  },

  reasons: {
    'unsubscribe.starting --always#0--> unsubscribe.idle': 'the last map opens the page without a link',
  },
});

// Opened without a link, as every visit but a mail's: nothing is asked and nothing is sent.
describeUiModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: null },
  async open() {
    const world: StepWorld = { ...(await openWorld({})), held: null, mark: 0, step: null };
    const sent: string[] = [];
    world.page.on('request', (request) => {
      if (request.url().includes('/functions/v1/email-unsubscribe')) sent.push(request.url());
    });
    await world.page.getByRole('button', { name: authCopy.login, exact: true }).first().waitFor();
    expect(sent).toEqual([]);
    return world;
  },
  views: {
    idle: async (world) => {
      expect(await dialogOf(world.page).count()).toBe(0);
    },
  },
  causes: {},
});

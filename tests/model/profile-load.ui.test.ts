import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { profileCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { Profile } from '../../src/domain/profile.ts';
import {
  profileLoadMachine,
  type ProfileLoadContext,
} from '../../src/machines/profile/profile-load.machine.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { authUser, profileRow } from '../support/fixtures.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { updateUserElsewhere } from '../support/ui/other-client.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import {
  openProfileDialogNow,
  profileDialog,
  profileField,
  seesProfileBusy,
  seesProfileReady,
  storeProfile,
  usernameOf,
} from '../support/ui/profile-dialog.ts';
import { holdEvery, restTable, type HeldRequests } from '../support/ui/request-queue.ts';
import { openWorld, pathUser, seesToast, type PortalWorld } from '../support/ui/world.ts';

// Reading (or creating) the profile through the portal: as the session starts (the portal opens
// signed in; Edit Profile says 'Loading your profile...', then 'could not be loaded' while the
// reader waits to try again) and again for a profile on show when the user is updated. The reads and the creation are held on their
// way to the stack until a step lets them go or fails them as a stopped gateway would; the
// back-off waits for the step that moves the page's clock on. The user is updated by another
// client of the account in the same browser.

const ada = authUser('ui-profile-load');
const ROW: Profile = profileRow(ada);

type World = PortalWorld & { reads: HeldRequests; creations: HeldRequests; username: string };

const contextOf = (state: { context: unknown }) => state.context as ProfileLoadContext;
const outputOf = (event: AnyEventObject) => (event as unknown as { output: unknown }).output;

/** What the other client changes: a name the portal does not read, so only the update matters. */
const ELSEWHERE = { nickname: 'updated elsewhere' };

async function holdProfileRequests(page: Page) {
  const table = restTable(gatewayFor('full').url, 'profiles');
  const [reads, creations] = await Promise.all([
    holdEvery(page, table, 'GET'),
    holdEvery(page, table, 'POST'),
  ]);
  return { reads, creations };
}

const events = {
  'session.userUpdated': [{ type: 'session.userUpdated', user: { ...ada, metadata: ELSEWHERE } }],
  'xstate.done.actor.fetchProfile': [
    { type: 'xstate.done.actor.fetchProfile', output: ROW },
    // No row yet: it is created.
    { type: 'xstate.done.actor.fetchProfile', output: null },
  ],
  'xstate.error.actor.fetchProfile': [
    { type: 'xstate.error.actor.fetchProfile', error: new Error('Failed to fetch') },
  ],
  'xstate.done.actor.createProfile': [{ type: 'xstate.done.actor.createProfile', output: ROW }],
  'xstate.error.actor.createProfile': [
    { type: 'xstate.error.actor.createProfile', error: new Error('Failed to fetch') },
  ],
};

const views = {
  fetching: async (world: World, state: { context: unknown }) => {
    await expect.poll(() => world.reads.count()).toBeGreaterThan(0);
    // A re-read keeps the profile on show; Save waits for it.
    if (contextOf(state).refetch) await seesProfileBusy(world.page);
    else await profileDialog(world.page).getByText(dialogCopy.profile.loading, { exact: true }).waitFor();
  },
  creating: async (world: World) => {
    await expect.poll(() => world.creations.count()).toBeGreaterThan(0);
    await profileDialog(world.page).getByText(dialogCopy.profile.loading, { exact: true }).waitFor();
  },
  waiting: async (world: World) => {
    await profileDialog(world.page).getByRole('alert').getByText(dialogCopy.profile.unavailable).waitFor();
  },
  done: async (world: World) => {
    await seesProfileReady(world.page);
    await expect
      .poll(() => profileField(world.page, dialogCopy.profile.username).inputValue())
      .toBe(world.username);
  },
};

const causes = {
  'xstate.done.actor.fetchProfile': async (world: World) => world.reads.releaseOldest(),
  // The gateway does not answer: the first failure of a run says so, its retries are quiet.
  'xstate.error.actor.fetchProfile': async (
    world: World,
    _event: AnyEventObject,
    from: { context: unknown },
  ) => {
    await world.reads.failOldest();
    const { refetch, failures } = contextOf(from);
    if (refetch || failures === 0) await seesToast(world.page, profileCopy.fetchError);
  },
  'xstate.done.actor.createProfile': async (world: World) => world.creations.releaseOldest(),
  'xstate.error.actor.createProfile': async (
    world: World,
    _event: AnyEventObject,
    from: { context: unknown },
  ) => {
    await world.creations.failOldest();
    if (contextOf(from).failures === 0) await seesToast(world.page, profileCopy.profileSyncError);
  },
  'session.userUpdated': async (world: World) => updateUserElsewhere(world, ELSEWHERE),
};

// The reader runs inside the profile machine in the page; the graph runs it under a stand-in
// parent (tests/support/model/paths.ts), which hears its facts and does nothing with them.
const machine = profileLoadMachine;
const serializeState = (state: { value: unknown; context: unknown }) =>
  JSON.stringify({ value: state.value, retrying: contextOf(state).failures > 0 });

// The first read, as the session starts.
describeUiModel({
  name: 'profile-load',
  machine,
  input: { user: ada, refetch: false },
  events,
  serializeState,
  async open(path) {
    const user = await pathUser();
    // A user who has a profile already: the path reads one.
    if (path.events.some((event) => event.type === 'xstate.done.actor.fetchProfile' && outputOf(event)))
      await storeProfile(user);
    // The portal opens signed in and reads the profile at once: held from its first request on.
    let held = null as Awaited<ReturnType<typeof holdProfileRequests>> | null;
    const world = await openWorld({
      clock: true,
      signedInAs: user,
      beforeLoad: async (page) => {
        held = await holdProfileRequests(page);
      },
    });
    if (!held) throw new Error('the portal loaded without its held requests');
    await openProfileDialogNow(world.page);
    await pauseClock(world.page);
    return Object.assign(world, held, { username: usernameOf(user) });
  },
  views,
  causes,
});

// A re-read of the profile on show, when the user is updated.
describeUiModel({
  name: 'profile-load',
  machine,
  input: { user: ada, refetch: true },
  events,
  serializeState,
  async open() {
    const user = await pathUser();
    const world = await openWorld({ clock: true, signedInAs: user });
    await openProfileDialogNow(world.page);
    await seesProfileReady(world.page);
    const held = await holdProfileRequests(world.page);
    await pauseClock(world.page);
    const reading = Object.assign(world, held, { username: usernameOf(user) });
    await updateUserElsewhere(reading, ELSEWHERE);
    return reading;
  },
  views,
  causes,
  // Everything else a re-read does, the first read does too (above); what is its own is that a
  // failure keeps the profile on show.
  can: (event) => event.type === 'xstate.error.actor.fetchProfile',
});

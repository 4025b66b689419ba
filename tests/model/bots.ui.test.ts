import type { SessionChanged } from '../../src/machines/shared.ts';
import { authUser, botRow } from '../support/fixtures.ts';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { botCopy } from '../../src/copy/bots.ts';
import { appCopy, shellCopy } from '../../src/copy/index.ts';
import { MAX_BOTS, type Bot, type BotRun } from '../../src/domain/bots.ts';
import { ruleInWords, runInWords } from '../../src/machines/bots/bot-checks.ts';
import { botsMachine, type BotsContext, type BotsLoad } from '../../src/machines/bots/bots.machine.ts';
import { ruleColumns } from '../../src/services/bots/bot-rows.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import { admin, openUserMenu } from '../support/e2e/ui.ts';
import { stableJson, type Snapshot } from '../support/model/paths.ts';
import { routeChannelFeed, type ChannelFeedRoute } from '../support/ui/channel-feed.ts';
import { describeUiModel, type UiPath } from '../support/ui/index.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import { holdEvery, restTable, type HeldRequests } from '../support/ui/request-queue.ts';
import { logInThere, recordToastsIn, sawToast, toastCount } from '../support/ui/session.ts';
import { openWorld, pathUser, type PortalWorld } from '../support/ui/world.ts';

// The Trading Bots tab through the portal. Each path is a new user of the stack whose bots are
// written with the service role before they log in (two of their own, or as many as an account
// may have), then driven through the tab: the list's reads and the form's, pause's and delete's
// writes are held on their way to the stack until a step lets them go or fails them as a stopped
// gateway would; the live feed is the page's Realtime socket, whose answer to the bots channel's
// join waits for a step, whose pushed changes wait until a step delivers one (the stack's echo of
// a write, or a bot the service role touches), and which a step can cut as a stopped server does.
// The page's clock is paused once the tab is shown: its back-offs wait for the step that moves it.
//
// Every bot a path makes watches for something no swap of the shared pool can do (a price of at
// least 1000 ETH per DDEX, a swap of 10^12 DDEX), so no bot of these paths ever fires.
//
// The list looks the same while it is read again in the background as when it is idle, so each
// read the paths let through finds one more run of Breakout (written just before it goes on): the
// new run on show says the read came back.

const USER = 'ui-bots';
const CREATED = '2026-01-01T00:00:00.000Z';
const BOTS_TOPIC = 'realtime:bots:';

/** The run of index `n` (1 oldest): each a swap of its own, newer than the one before. */
const runOf = (n: number): BotRun => ({
  id: `r${n}`,
  botId: 'b1',
  txHash: `0x${n.toString(16).padStart(64, 'a')}`,
  blockTime: `2026-01-0${n + 1}T00:00:00.000Z`,
  priceBefore: 0.002,
  priceAfter: 0.00213,
  ddexAmount: 1000 * n,
  side: 'buy',
});
/** Breakout's runs when it has `count`, newest first. */
const runsUpTo = (count: number) => Array.from({ length: count }, (_, index) => runOf(count - index));

const breakout = botRow(
  'b1',
  'Breakout',
  { kind: 'priceAbove', level: 1000 },
  { lastFiredAt: runOf(1).blockTime, createdAt: CREATED },
);
const whale = botRow(
  'b2',
  'Whale watch',
  { kind: 'largeSwap', minDdex: 1e12 },
  { cooldownMinutes: 60, status: 'paused', createdAt: CREATED },
);
/** What the form makes of a new bot named Moonshot above 5000, and an edit of Breakout's name. */
const moonshot = botRow('b3', 'Moonshot', { kind: 'priceAbove', level: 5000 }, { createdAt: CREATED });
const renamed: Bot = { ...breakout, name: moonshot.name };

const loaded: BotsLoad = { bots: [breakout, whale], runs: { b1: runsUpTo(1) } };
/** The reads again: one more run each time (see above). */
const reread = [2, 3].map((count): BotsLoad => ({ bots: [breakout, whale], runs: { b1: runsUpTo(count) } }));
/** As many bots as an account may have. */
const full: BotsLoad = {
  bots: Array.from({ length: MAX_BOTS }, (_, index) => ({
    ...breakout,
    id: `w${index + 1}`,
    name: `Watcher ${index + 1}`,
    rule: { kind: 'priceAbove' as const, level: 1000 + index },
    lastFiredAt: null,
  })),
  runs: {},
};

const failure = new Error('Failed to fetch');
const errorsOf = (...ids: string[]) =>
  Object.fromEntries(
    ids.map((id) => [`xstate.error.actor.${id}`, [{ type: `xstate.error.actor.${id}`, error: failure }]]),
  );

type Method = 'POST' | 'PATCH' | 'DELETE';
type World = PortalWorld & {
  userId: string;
  /** The model's bot ids → the rows written for this user. */
  ids: Record<string, string>;
  feed: ChannelFeedRoute;
  /** The list's two reads (bots, runs), each held until a step settles it. */
  reads: { bots: HeldRequests; runs: HeldRequests };
  writes: Record<Method, HeldRequests>;
};

const contextOf = (state: Snapshot) => state.context as BotsContext;
const outputOf = <T>(event: AnyEventObject) => (event as unknown as { output: T }).output;
const runCount = (runs: BotsContext['runs'], botId: string) => runs[botId]?.length ?? 0;
const inList = (state: Snapshot, ready: string) => state.matches({ active: { list: { ready } } });
const botOf = (context: BotsContext, id: string | null) => context.bots.find((bot) => bot.id === id);
const nameOf = (context: BotsContext, id: string | null) => botOf(context, id)?.name ?? '';

// ---- What the page shows -------------------------------------------------------------------

const botsTab = (page: Page) =>
  page
    .getByRole('navigation', { name: shellCopy.sections })
    .getByRole('button', { name: appCopy.tabs.bots, exact: true });
const listRegion = (page: Page) => page.getByRole('region', { name: botCopy.listTitle, exact: true });
const toolbar = (page: Page, name: string) => listRegion(page).getByRole('button', { name, exact: true });
const cardOf = (page: Page, name: string) => listRegion(page).getByRole('region', { name, exact: true });
const formOf = (page: Page, context: BotsContext) =>
  listRegion(page).getByRole('region', {
    name:
      context.editingId === null
        ? botCopy.createTitle
        : botCopy.editTitle(nameOf(context, context.editingId)),
    exact: true,
  });
const confirmOf = (page: Page, context: BotsContext) => {
  const name = nameOf(context, context.targetId);
  return cardOf(page, name).getByRole('group', { name: botCopy.confirmDeleteTitle(name), exact: true });
};
const failedAlert = (page: Page) => page.getByRole('alert').filter({ hasText: botCopy.loadFailed });
const feedLost = (page: Page) => listRegion(page).getByRole('status').filter({ hasText: botCopy.feedLost });
const enabled = (locator: Locator) => expect.poll(() => locator.isEnabled());

/** Every bot of the model's list, with its status, rule and runs, and no other. */
async function seesBots(page: Page, context: BotsContext) {
  const list = listRegion(page);
  await list.getByText(botCopy.count(context.bots.length), { exact: true }).waitFor();
  const cards = list.getByRole('list', { name: botCopy.listTitle, exact: true }).locator(':scope > li');
  await expect.poll(() => cards.count()).toBe(context.bots.length);
  for (const bot of context.bots) {
    const card = cardOf(page, bot.name);
    await card.getByText(botCopy.statuses[bot.status], { exact: true }).waitFor();
    await card.getByText(ruleInWords(bot.rule), { exact: true }).waitFor();
    const runs = context.runs[bot.id] ?? [];
    if (runs.length === 0) {
      await card.getByText(botCopy.noRuns, { exact: true }).waitFor();
      continue;
    }
    const items = card.getByRole('list', { name: botCopy.runsTitle, exact: true }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(runs.length);
    for (const run of runs) await card.getByText(runInWords(run).swap, { exact: true }).waitFor();
  }
}

/** The form as the model holds it: its title, each field's text, the words refusing fields. */
async function seesForm(page: Page, context: BotsContext, saving: boolean) {
  const form = formOf(page, context);
  const { draft, problems } = context;
  const field = (label: string) => form.getByLabel(label, { exact: true });
  await expect.poll(() => field(botCopy.fields.name).inputValue()).toBe(draft.name);
  expect(await field(botCopy.fields.kind).inputValue()).toBe(draft.kind);
  if (draft.kind === 'priceAbove' || draft.kind === 'priceBelow')
    expect(await field(botCopy.fields.level).inputValue()).toBe(draft.level);
  expect(await field(botCopy.fields.cooldownMinutes).inputValue()).toBe(draft.cooldownMinutes);
  for (const words of Object.values(problems)) await form.getByText(words, { exact: true }).waitFor();
  await expect.poll(() => form.locator('[aria-invalid="true"]').count()).toBe(Object.keys(problems).length);
  const submit = saving ? botCopy.saving : context.editingId === null ? botCopy.create : botCopy.save;
  await expect.poll(() => form.getByRole('button', { name: submit, exact: true }).isEnabled()).toBe(!saving);
}

async function readsHeld(world: World) {
  await world.reads.bots.arrived();
  await world.reads.runs.arrived();
}

const writesHeld = (world: World) => Object.values(world.writes).reduce((sum, held) => sum + held.count(), 0);

const views = {
  signedOut: async (world: World) => {
    await world.page.getByText(botCopy.visitorPrompt, { exact: true }).waitFor();
    await button(world.page, botCopy.logIn).waitFor();
    expect(await listRegion(world.page).count()).toBe(0);
  },
  'active.list.loading': async (world: World) => {
    await world.page.getByText(botCopy.loading, { exact: true }).waitFor();
    await readsHeld(world);
  },
  'active.list.failed': async (world: World) => {
    await enabled(failedAlert(world.page).getByRole('button', { name: botCopy.retry, exact: true })).toBe(
      true,
    );
    await failedAlert(world.page).getByText(botCopy.retrying, { exact: true }).waitFor();
    expect(world.reads.bots.count()).toBe(0);
  },
  'active.list.ready': async (world: World, state: Snapshot) => seesBots(world.page, contextOf(state)),
  // The list takes presses and nothing is on its way.
  'active.list.ready.idle': async (world: World) => {
    for (const name of [botCopy.refresh, botCopy.newBot]) await enabled(toolbar(world.page, name)).toBe(true);
    expect(await listRegion(world.page).locator('form').count()).toBe(0);
    expect(await listRegion(world.page).getByRole('group').count()).toBe(0);
    expect([world.reads.bots.count(), world.reads.runs.count(), writesHeld(world)]).toEqual([0, 0, 0]);
  },
  // The same list, taking presses, while its read is on its way.
  'active.list.ready.refreshing': async (world: World) => {
    for (const name of [botCopy.refresh, botCopy.newBot]) await enabled(toolbar(world.page, name)).toBe(true);
    await readsHeld(world);
  },
  'active.list.ready.editing': async (world: World, state: Snapshot) => {
    await seesForm(world.page, contextOf(state), false);
    await enabled(toolbar(world.page, botCopy.newBot)).toBe(false);
    expect(writesHeld(world)).toBe(0);
  },
  'active.list.ready.saving': async (world: World, state: Snapshot) => {
    const context = contextOf(state);
    await seesForm(world.page, context, true);
    await world.writes[context.editingId === null ? 'POST' : 'PATCH'].arrived();
  },
  // The pressed button waits for the answer, and every other button of the list with it.
  'active.list.ready.toggling': async (world: World, state: Snapshot) => {
    const context = contextOf(state);
    const bot = botOf(context, context.targetId);
    if (!bot) throw new Error('no bot is being paused or resumed');
    const name = bot.status === 'active' ? botCopy.pause : botCopy.resume;
    const pressed = cardOf(world.page, bot.name).getByRole('button', { name, exact: true });
    await expect.poll(() => pressed.getAttribute('aria-busy')).toBe('true');
    await enabled(toolbar(world.page, botCopy.refresh)).toBe(false);
    await world.writes.PATCH.arrived();
  },
  'active.list.ready.confirmingDelete': async (world: World, state: Snapshot) => {
    const confirm = confirmOf(world.page, contextOf(state));
    await confirm.getByText(botCopy.confirmDeleteDescription, { exact: true }).waitFor();
    await enabled(confirm.getByRole('button', { name: botCopy.confirmDelete, exact: true })).toBe(true);
    expect(writesHeld(world)).toBe(0);
  },
  'active.list.ready.deleting': async (world: World, state: Snapshot) => {
    const confirm = confirmOf(world.page, contextOf(state));
    await enabled(confirm.getByRole('button', { name: botCopy.deleting, exact: true })).toBe(false);
    await world.writes.DELETE.arrived();
  },
  // The feed is seen on the socket (the join waiting for its answer, a channel joined, none) and,
  // once the list is on show, in the notice of a feed that is down.
  'active.feed.connected': async (world: World, state: Snapshot) => {
    if (state.matches({ active: { list: 'ready' } }))
      await expect.poll(() => feedLost(world.page).count()).toBe(0);
  },
  'active.feed.connected.subscribing': async (world: World) => {
    await expect
      .poll(() => world.feed.joinWaiting(), { message: 'the join waits for its answer' })
      .toBe(true);
  },
  'active.feed.connected.live': async (world: World) => {
    await expect.poll(() => world.feed.joined(), { message: 'the bots channel joined' }).toBe(true);
  },
  'active.feed.waiting': async (world: World) => {
    await feedLost(world.page).waitFor();
    expect(world.feed.joined() || world.feed.joinWaiting()).toBe(false);
  },
};

// ---- How the world causes each event -------------------------------------------------------

/** Does `act`, then waits for a toast saying `title` that the page showed since. */
async function told(world: World, title: string, act: () => Promise<void>) {
  const mark = await toastCount(world.page);
  await act();
  await sawToast(world.page, title, mark);
}

/**
 * A press of the list's: while it is read again in the background, the press drops that read; its
 * requests go on once the press has shown its effect, and their answer is not heard any more.
 */
async function press(world: World, from: Snapshot, pressed: Locator, shown: () => Promise<void>) {
  const dropped = inList(from, 'refreshing')
    ? { bots: world.reads.bots.count(), runs: world.reads.runs.count() }
    : null;
  await pressed.click();
  await shown();
  for (let left = dropped?.bots ?? 0; left > 0; left -= 1) await world.reads.bots.releaseOldest();
  for (let left = dropped?.runs ?? 0; left > 0; left -= 1) await world.reads.runs.releaseOldest();
}

/** The reads the press sends have reached the gateway's door. */
const readsSent = (world: World) => {
  const before = [world.reads.bots.sent(), world.reads.runs.sent()];
  return async () => {
    await expect.poll(() => world.reads.bots.sent()).toBeGreaterThan(before[0] ?? 0);
    await expect.poll(() => world.reads.runs.sent()).toBeGreaterThan(before[1] ?? 0);
  };
};

/** The one run the service role records for Breakout, as market-bots records a firing. */
async function recordRun(world: World, run: BotRun) {
  const { error } = await admin()
    .from('bot_runs')
    .insert({
      bot_id: world.ids[run.botId] ?? '',
      user_id: world.userId,
      tx_hash: run.txHash,
      log_index: 0,
      block_number: 1000 + Number(run.id.slice(1)),
      block_time: run.blockTime,
      price_before: run.priceBefore,
      price_after: run.priceAfter,
      ddex_amount: run.ddexAmount,
      side: run.side,
    });
  if (error) throw new Error(`could not record a run: ${error.message}`);
}

/** The user's bots and runs as the path's first read answers them, written with the service role. */
async function storeBots(world: World, load: BotsLoad) {
  const { data, error } = await admin()
    .from('bots')
    .insert(
      load.bots.map((bot) => ({
        user_id: world.userId,
        name: bot.name,
        ...ruleColumns(bot.rule),
        cooldown_minutes: bot.cooldownMinutes,
        status: bot.status,
        last_fired_at: bot.lastFiredAt,
      })),
    )
    .select('id, name');
  if (error) throw new Error(`could not store the bots: ${error.message}`);
  for (const row of data) world.ids[load.bots.find((bot) => bot.name === row.name)?.id ?? ''] = row.id;
  for (const run of Object.values(load.runs).flat()) await recordRun(world, run);
}

/**
 * A change of one of the user's rows reaches the page: the stack's echo of a write of the page's
 * if it pushed one, else the service role touches a bot (its cooldown, to the same value).
 */
async function pushChange(world: World, table: string) {
  const echo = world.feed.pending().find((change) => change.table === table);
  if (echo) return echo.deliver();
  const db = admin();
  const { data, error } = await db.from('bots').select('id, cooldown_minutes').eq('user_id', world.userId);
  const [bot] = data ?? [];
  if (error || !bot) throw new Error(`the user has no bot to change: ${error?.message ?? 'none'}`);
  const touched = await db.from('bots').update({ cooldown_minutes: bot.cooldown_minutes }).eq('id', bot.id);
  if (touched.error) throw new Error(touched.error.message);
  const pushed = () => world.feed.pending().find((change) => change.rowId === bot.id);
  await expect.poll(() => !!pushed(), { message: 'the stack pushes the change of the bot' }).toBe(true);
  pushed()?.deliver();
}

const idOf = (event: AnyEventObject) => (event as { id?: string }).id ?? null;

/** A press of one of a bot's buttons; `shown` waits for what it does. */
const cardPress =
  (label: string, shown: (world: World, name: string) => Promise<void>) =>
  async (world: World, event: AnyEventObject, from: Snapshot) => {
    const name = nameOf(contextOf(from), idOf(event));
    const pressed = cardOf(world.page, name).getByRole('button', { name: label, exact: true });
    await press(world, from, pressed, () => shown(world, name));
  };

/** The list's held reads go on to the stack, or fail as a stopped gateway fails them. */
async function settleReads(world: World, ok: boolean) {
  await readsHeld(world);
  const { bots, runs } = world.reads;
  await Promise.all(ok ? [bots.releaseAll(), runs.releaseAll()] : [bots.failAll(), runs.failAll()]);
}

const saveMethod = (context: BotsContext): Method => (context.editingId === null ? 'POST' : 'PATCH');
const patch = (): Method => 'PATCH';
const remove = (): Method => 'DELETE';

/** The write the state waits on goes on (`ok`) or fails; the toast that says how it ended shows. */
const settleWrite =
  (ok: boolean, method: (context: BotsContext) => Method, title: (context: BotsContext) => string) =>
  async (world: World, _event: AnyEventObject, from: Snapshot) => {
    const context = contextOf(from);
    const held = world.writes[method(context)];
    await told(world, title(context), () => (ok ? held.releaseOldest() : held.failOldest()));
  };

const field = (world: World, from: Snapshot, label: string) =>
  formOf(world.page, contextOf(from)).getByLabel(label, { exact: true });

const causes = {
  // A visitor logs in from the tab's own prompt; a user logs out from the user menu.
  'session.changed': async (world: World, event: AnyEventObject) => {
    const { page } = world;
    if ((event as SessionChanged).user !== null) {
      await button(page, botCopy.logIn).click();
      await logInThere(page, await world.user());
      await page.getByText(botCopy.loading, { exact: true }).waitFor();
      await pauseClock(page);
      return;
    }
    await page.clock.resume();
    await openUserMenu(page);
    await page
      .getByRole('dialog', { name: shellCopy.userMenuLabel })
      .getByRole('button', { name: appCopy.menu.logOut, exact: true })
      .click();
    await page.getByText(botCopy.visitorPrompt, { exact: true }).waitFor();
    await pauseClock(page);
    // What the page still had on its way is not heard any more: reads answered, writes lost.
    await Promise.all([world.reads.bots.releaseAll(), world.reads.runs.releaseAll()]);
    await Promise.all(Object.values(world.writes).map((held) => held.failAll()));
  },
  'bots.retry': async (world: World) =>
    failedAlert(world.page).getByRole('button', { name: botCopy.retry, exact: true }).click(),
  'bots.refresh': async (world: World, _event: AnyEventObject, from: Snapshot) =>
    press(world, from, toolbar(world.page, botCopy.refresh), readsSent(world)),
  // At the limit the press is refused with a toast, and a read under way goes on.
  'bots.create': async (world: World, _event: AnyEventObject, from: Snapshot) => {
    const newBot = toolbar(world.page, botCopy.newBot);
    if (contextOf(from).bots.length >= MAX_BOTS)
      return told(world, botCopy.limitReached.title, () => newBot.click());
    const form = listRegion(world.page).getByRole('region', { name: botCopy.createTitle, exact: true });
    return press(world, from, newBot, () => form.waitFor());
  },
  'bots.edit': cardPress(botCopy.edit, (world, name) =>
    listRegion(world.page)
      .getByRole('region', { name: botCopy.editTitle(name), exact: true })
      .waitFor(),
  ),
  'bots.pause': cardPress(botCopy.pause, (world) => world.writes.PATCH.arrived()),
  'bots.resume': cardPress(botCopy.resume, (world) => world.writes.PATCH.arrived()),
  'bots.delete': cardPress(botCopy.delete, (world, name) =>
    cardOf(world.page, name)
      .getByRole('group', { name: botCopy.confirmDeleteTitle(name), exact: true })
      .waitFor(),
  ),
  'bots.field': async (world: World, event: AnyEventObject, from: Snapshot) => {
    const { name, value } = event as unknown as { name: keyof typeof botCopy.fields; value: string };
    await field(world, from, botCopy.fields[name]).fill(value);
  },
  'bots.submit': async (world: World, _event: AnyEventObject, from: Snapshot) => {
    const context = contextOf(from);
    const name = context.editingId === null ? botCopy.create : botCopy.save;
    await formOf(world.page, context).getByRole('button', { name, exact: true }).click();
  },
  'bots.cancel': async (world: World, _event: AnyEventObject, from: Snapshot) => {
    const context = contextOf(from);
    const scope = inList(from, 'editing') ? formOf(world.page, context) : confirmOf(world.page, context);
    await scope.getByRole('button', { name: botCopy.cancel, exact: true }).click();
  },
  'bots.confirmDelete': async (world: World, _event: AnyEventObject, from: Snapshot) =>
    confirmOf(world.page, contextOf(from))
      .getByRole('button', { name: botCopy.confirmDelete, exact: true })
      .click(),
  'bots.changed': async (world: World, event: AnyEventObject) =>
    pushChange(world, (event as { table?: string }).table ?? 'bots'),
  // The server's answer to the join goes through, or the socket goes down as a server stops.
  'bots.feedStatus': async (world: World, event: AnyEventObject) => {
    if ((event as { status?: string }).status === 'SUBSCRIBED') await world.feed.releaseJoin();
    else await world.feed.drop();
  },

  'xstate.done.actor.loadBots': async (world: World) => settleReads(world, true),
  'xstate.error.actor.loadBots': async (world: World) => settleReads(world, false),
  // Breakout fired once more meanwhile: the read finds the new run.
  'xstate.done.actor.refreshBots': async (world: World, _event: AnyEventObject, from: Snapshot) => {
    await readsHeld(world);
    await recordRun(world, runOf(runCount(contextOf(from).runs, breakout.id) + 1));
    await settleReads(world, true);
  },
  'xstate.error.actor.refreshBots': async (world: World) =>
    told(world, botCopy.refreshFailed, () => settleReads(world, false)),
  'xstate.done.actor.saveBot': settleWrite(true, saveMethod, (context) =>
    context.editingId === null ? botCopy.created : botCopy.saved,
  ),
  'xstate.error.actor.saveBot': settleWrite(false, saveMethod, (context) =>
    context.editingId === null ? botCopy.createFailed : botCopy.saveFailed,
  ),
  'xstate.done.actor.setBotStatus': settleWrite(true, patch, (context) =>
    context.targetStatus === 'paused' ? botCopy.paused : botCopy.resumed,
  ),
  'xstate.error.actor.setBotStatus': settleWrite(false, patch, (context) =>
    context.targetStatus === 'paused' ? botCopy.pauseFailed : botCopy.resumeFailed,
  ),
  'xstate.done.actor.deleteBot': settleWrite(true, remove, () => botCopy.deleted),
  'xstate.error.actor.deleteBot': settleWrite(false, remove, () => botCopy.deleteFailed),
};

// ---- The world of a path ---------------------------------------------------------------------

/**
 * A fresh portal whose Realtime socket and bots requests the steps hold, with a new user of the
 * stack (`load`: the portal opens signed in as them, and their bots are written before the tab
 * opens). The socket is routed and the toasts recorded before the portal loads: both take only in
 * a document loaded after them.
 */
async function openBotsWorld(load: BotsLoad | null): Promise<World> {
  let routed = null as ChannelFeedRoute | null;
  const portal = await openWorld({
    clock: true,
    ...(load ? { signedInAs: await pathUser() } : {}),
    beforeLoad: async (page) => {
      await recordToastsIn(page.context());
      routed = await routeChannelFeed(page, BOTS_TOPIC);
    },
  });
  const feed = routed;
  if (!feed) throw new Error('the portal loaded without its routed socket');
  const { page } = portal;
  const table = restTable(gatewayFor('full').url, 'bots');
  const [bots, runs, POST, PATCH, DELETE] = await Promise.all([
    holdEvery(page, table, 'GET'),
    holdEvery(page, restTable(gatewayFor('full').url, 'bot_runs'), 'GET'),
    holdEvery(page, table, 'POST'),
    holdEvery(page, table, 'PATCH'),
    holdEvery(page, table, 'DELETE'),
  ]);
  const userId = (await portal.user()).id;
  const world: World = Object.assign(portal, {
    userId,
    ids: {},
    feed,
    reads: { bots, runs },
    writes: { POST, PATCH, DELETE },
  });
  // Read when the tab opens, not before: written now, they are there for its first read.
  if (load) await storeBots(world, load);
  await botsTab(page).click();
  if (!load) {
    await page.getByText(botCopy.visitorPrompt, { exact: true }).waitFor();
    return world;
  }
  await page.getByText(botCopy.loading, { exact: true }).waitFor();
  await readsHeld(world);
  await expect.poll(() => feed.joinWaiting(), { message: 'the bots channel asks to join' }).toBe(true);
  // The tab's code has loaded: from here on the page's timers wait for the steps.
  await pauseClock(page);
  return world;
}

/** What the views read: where the chart is, the list, the form, and the failures the waits count. */
function serializeState(state: Snapshot): string {
  const { bots, runs, loadFailures, feedFailures, ...rest } = contextOf(state);
  return stableJson({
    value: state.value,
    bots: bots.map((bot) => [bot.id, bot.name, bot.status]),
    runs: Object.keys(runs).map((id) => [id, runCount(runs, id)]),
    failed: [loadFailures > 0, feedFailures > 0],
    rest,
  });
}

/** The bots the stack holds for the user are the ones on show: no write of the path changed them. */
const sameBots = (a: readonly Bot[], b: readonly Bot[]) => stableJson(a) === stableJson(b);

const uiEvents = {
  'session.changed': [{ type: 'session.changed', user: null }],
  'bots.feedStatus': [
    { type: 'bots.feedStatus', status: 'SUBSCRIBED' },
    { type: 'bots.feedStatus', status: 'CHANNEL_ERROR' },
  ],
  'bots.changed': [{ type: 'bots.changed', table: 'bots' }],
  'bots.edit': [{ type: 'bots.edit', id: breakout.id }],
  'bots.pause': [{ type: 'bots.pause', id: breakout.id }],
  'bots.resume': [{ type: 'bots.resume', id: whale.id }],
  'bots.delete': [{ type: 'bots.delete', id: whale.id }],
  'bots.field': [
    { type: 'bots.field', name: 'name', value: moonshot.name },
    { type: 'bots.field', name: 'level', value: '5000' },
  ],
  'xstate.done.actor.loadBots': [
    { type: 'xstate.done.actor.loadBots', output: loaded },
    { type: 'xstate.done.actor.loadBots', output: full },
  ],
  'xstate.done.actor.refreshBots': reread.map((output) => ({
    type: 'xstate.done.actor.refreshBots',
    output,
  })),
  'xstate.done.actor.saveBot': [
    { type: 'xstate.done.actor.saveBot', output: moonshot },
    { type: 'xstate.done.actor.saveBot', output: renamed },
  ],
  'xstate.done.actor.setBotStatus': [
    { type: 'xstate.done.actor.setBotStatus', output: { ...breakout, status: 'paused' } },
    { type: 'xstate.done.actor.setBotStatus', output: { ...whale, status: 'active' } },
  ],
  'xstate.done.actor.deleteBot': [{ type: 'xstate.done.actor.deleteBot', output: undefined }],
  ...errorsOf('loadBots', 'refreshBots', 'saveBot', 'setBotStatus', 'deleteBot'),
};

/** What the page can cause where, and what the stack would answer there. */
function can(event: AnyEventObject, state: Snapshot): boolean {
  const context = contextOf(state);
  const listIdle = inList(state, 'idle');
  switch (event.type) {
    // The feed's effects are seen only on a list on show: its join answered (a read again) and a
    // change (a read again) while the list is idle, its loss in the list's notice.
    case 'bots.feedStatus':
      return (event as { status?: string }).status === 'SUBSCRIBED'
        ? listIdle && state.matches({ active: { feed: { connected: 'subscribing' } } })
        : state.matches({ active: { list: 'ready', feed: 'connected' } });
    case 'bots.changed':
      return listIdle && state.matches({ active: { feed: { connected: 'live' } } });
    // A new bot gets a level; an edit keeps Breakout's rule.
    case 'bots.field':
      return (event as { name?: string }).name === 'name' || context.editingId === null;
    case 'xstate.done.actor.refreshBots': {
      const output = outputOf<BotsLoad>(event);
      return (
        sameBots(output.bots, context.bots) &&
        runCount(output.runs, breakout.id) === runCount(context.runs, breakout.id) + 1
      );
    }
    // The row the stack answers: the new bot (one Moonshot at most), or the bot as edited.
    case 'xstate.done.actor.saveBot': {
      const output = outputOf<Bot>(event);
      if (context.editingId === null)
        return output.id === moonshot.id && !context.bots.some((bot) => bot.name === moonshot.name);
      const edited = botOf(context, context.editingId);
      return !!edited && stableJson({ ...edited, name: context.draft.name.trim() }) === stableJson(output);
    }
    case 'xstate.done.actor.setBotStatus': {
      const target = botOf(context, context.targetId);
      return (
        !!target && stableJson({ ...target, status: context.targetStatus }) === stableJson(outputOf(event))
      );
    }
    default:
      return true;
  }
}

const notUiReachable = {
  'xstate.error.actor.botsFeed':
    'the feed actor never throws: a subscription that fails or drops is reported as a status (CHANNEL_ERROR), which the paths cause by cutting the socket',
};
const reasons = {
  'bots.active --session.changed#1--> bots.active':
    "the portal reports another account signing in as a sign-out and then a sign-in (its root is signed out before the new user arrives), so the tab's user is never replaced without a visitor in between",
};

// A user's tab: the list, the form, pause, resume, delete, the feed and the log-out.
describeUiModel({
  name: 'bots',
  machine: botsMachine,
  input: { userId: USER },
  events: uiEvents,
  serializeState,
  open: (path: UiPath) =>
    openBotsWorld(path.has('xstate.done.actor.loadBots', { output: full }) ? full : loaded),
  views,
  causes,
  can,
  notUiReachable,
  reasons,
  limit: 60_000,
});

// A visitor, asked to log in: logging in from the tab's prompt starts the user's tab (whose own
// paths are above).
describeUiModel({
  name: 'bots',
  machine: botsMachine,
  input: { userId: null },
  events: { 'session.changed': [{ type: 'session.changed', user: authUser(USER) }] },
  serializeState,
  open: () => openBotsWorld(null),
  views,
  causes,
  can: (_event, state) => state.matches('signedOut'),
  notUiReachable,
  reasons,
});

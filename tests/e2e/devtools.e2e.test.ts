import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { JournalExport } from '../../src/devtools/journal-types.ts';
import { appCopy, authCopy, shellCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { inspectConsent } from '../../src/devtools/inspect-consent.ts';
import { devtoolsCopy } from '../../src/devtools/panel/devtools.copy.ts';
import { MACHINE_IDS } from '../../src/devtools/panel/types.ts';
import { TAKEN_CLASS } from '../../src/devtools/panel/diagram.ts';
import { TAKEN_EDGE_CLASS, TAKEN_LINE_CLASS } from '../../src/devtools/panel/overlay-dom.ts';
import { toastDurations } from '../../src/machines/toast.machine.ts';
import { walletMachine } from '../../src/machines/wallet/wallet.machine.ts';
import { allTransitionKeys } from '../support/model/coverage.ts';
import { uniqueEmail } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { screenshot } from '../support/e2e/screenshot.ts';

// The developer panel (issue 5/7): gated behind `?devtools` in these production
// builds, lazy, live machine states, the live journal, export (with nothing
// secret in it), import and replay, the clear messages for wrong files, and
// the Mermaid diagram with the current state highlighted. Read-only account:
// nothing here sends a transfer.

const viewer = e2eAccount('viewer');
const copy = devtoolsCopy;

/** Scripts the page requested so far (resource timing lists every one, including the lazy chunks). */
const requestedScripts = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.js')),
  );
const PANEL_CHUNK = /\/assets\/DevtoolsPanel-[^/]*\.js$/;
const MERMAID_CHUNK = /\/assets\/mermaid[^/]*\.js$/;

async function openPanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: copy.toggleText, exact: true }).click();
  const panel = page.getByRole('region', { name: copy.title, exact: true });
  await panel.waitFor();
  return panel;
}

/** The root's regions once loading has finished, for a visitor: settled, nobody signed in, no tab's actor. */
const PORTAL_VISITOR_STATES = ['boot.ready', 'session.signedOut', 'tabActors.none'];

const machine = (scope: Locator, id: string) => scope.getByRole('article', { name: id, exact: true });

/** The dotted state paths a machine's card lists. */
const statesOf = (card: Locator, id: string) =>
  card
    .getByRole('list', { name: `${id} state`, exact: true })
    .getByRole('listitem')
    .allInnerTexts();

async function liveStates(panel: Locator): Promise<Record<string, string[]>> {
  await panel.getByRole('tab', { name: copy.tabs.machines }).click();
  const states: Record<string, string[]> = {};
  for (const id of MACHINE_IDS) states[id] = await statesOf(machine(panel, id), id);
  return states;
}

async function exportJournal(
  page: Page,
  panel: Locator,
): Promise<{ path: string; name: string; text: string }> {
  await panel.getByRole('tab', { name: copy.tabs.journal }).click();
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: copy.journal.export }).click();
  const file = await download;
  const path = await file.path();
  return { path, name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

async function chooseFile(panel: Locator, file: { name: string; text: string }) {
  await panel.getByRole('tab', { name: copy.tabs.replay }).click();
  await panel.getByLabel(copy.replay.fileLabel).setInputFiles({
    name: file.name,
    mimeType: 'application/json',
    buffer: Buffer.from(file.text),
  });
}

/** axe on each view of the open panel (machines, journal, a refused file, a diagram), then on the page. */
async function passesAxe(page: Page, panel: Locator, colorScheme: 'light' | 'dark') {
  const scope = { include: '#devtools-panel' };
  await expect.poll(() => statesOf(machine(panel, 'portal'), 'portal')).toEqual(PORTAL_VISITOR_STATES);
  await machine(panel, 'portal').locator('summary').click();
  expect(await runAxe(page, `devtools machines, ${colorScheme}`, scope)).toEqual([]);

  await panel.getByRole('tab', { name: copy.tabs.journal }).click();
  await panel.getByRole('list', { name: copy.journal.heading }).locator('summary').first().click();
  expect(await runAxe(page, `devtools journal, ${colorScheme}`, scope)).toEqual([]);

  await chooseFile(panel, { name: 'notes.txt', text: 'not a journal' });
  await panel.getByRole('alert').waitFor();
  expect(await runAxe(page, `devtools replay, ${colorScheme}`, scope)).toEqual([]);

  await panel.getByRole('tab', { name: copy.tabs.diagram }).click();
  await panel
    .getByRole('img', { name: copy.diagram.label('portal', PORTAL_VISITOR_STATES.join(', ')) })
    .waitFor({ timeout: 30_000 });
  expect(await runAxe(page, `devtools diagram, ${colorScheme}`, scope)).toEqual([]);
  // The whole page too: the toggle and the open sheet must not break the portal's own checks.
  expect(await runAxe(page, `portal with devtools, ${colorScheme}`)).toEqual([]);
}

describe('developer panel', () => {
  it('asks once before ?inspect streams anything from this production build, and on no the portal runs as usual', async () => {
    const questions: string[] = [];
    const { page, context, externalRequests } = await openPortal({
      path: '/?inspect',
      beforeLoad: (opened) =>
        opened.on('dialog', (dialog) => {
          questions.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.dismiss();
        }),
    });
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await page.getByText(walletCopy.notInstalled).waitFor();
    expect(questions).toEqual([`confirm: ${inspectConsent}`]);
    // Declined: no inspector window was opened, and nothing tried to leave the machine.
    expect(context.pages()).toEqual([page]);
    expect(externalRequests).toEqual([]);
  });

  it('is absent without ?devtools, opens from the keyboard and closes on Escape, says why a file cannot be replayed, and passes axe, light', async () => {
    // Without the flag: no toggle, and its chunk is never requested.
    const { page, externalRequests } = await openPortal();
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: copy.toggleText }).count()).toBe(0);
    const scripts = await requestedScripts(page);
    expect(scripts.filter((url) => PANEL_CHUNK.test(url) || MERMAID_CHUNK.test(url))).toEqual([]);
    expect(externalRequests).toEqual([]);

    // With the flag the same build loads it: the pattern above does name the panel's chunk.
    await page.goto(`${new URL(page.url()).origin}/?devtools`);
    const toggle = page.getByRole('button', { name: copy.toggleText, exact: true });
    await toggle.waitFor();
    expect((await requestedScripts(page)).some((url) => PANEL_CHUNK.test(url))).toBe(true);
    expect((await requestedScripts(page)).some((url) => MERMAID_CHUNK.test(url))).toBe(false);

    // It opens from the keyboard, labelled.
    await toggle.focus();
    await page.keyboard.press('Enter');
    let panel = page.getByRole('region', { name: copy.title, exact: true });
    await panel.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(copy.title);

    // The views are tabs; the arrow keys move between them.
    await panel.getByRole('tab', { name: copy.tabs.machines }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await panel.getByRole('tab', { name: copy.tabs.journal }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await panel.getByRole('heading', { name: copy.journal.heading }).waitFor();

    // Escape closes it back to its toggle.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);

    // Each file that cannot be replayed is refused with its reason. (Opened again, the panel is on
    // the view it was left on.)
    panel = await openPanel(page);
    await panel.getByRole('tab', { name: copy.tabs.machines }).click();
    await expect.poll(() => statesOf(machine(panel, 'portal'), 'portal')).toEqual(PORTAL_VISITOR_STATES);
    const good = await exportJournal(page, panel);
    const recording = JSON.parse(good.text) as JournalExport;
    const alert = panel.getByRole('alert');

    const cases: [string, string, string][] = [
      ['notes.txt', 'these are my notes', copy.replay.notJson],
      ['other.json', JSON.stringify({ hello: 'world', entries: [] }), copy.replay.wrongFormat],
      ['v2.json', JSON.stringify({ ...recording, version: 2 }), copy.replay.wrongFormat],
      ['truncated.json', JSON.stringify({ ...recording, truncated: true }), copy.replay.truncated],
      [
        'gap.json',
        JSON.stringify({ ...recording, entries: recording.entries.slice(1) }),
        copy.replay.truncated,
      ],
      ['cut.json', good.text.slice(0, Math.floor(good.text.length / 2)), copy.replay.cutOff],
    ];
    for (const [name, text, message] of cases) {
      await chooseFile(panel, { name, text });
      await expect.poll(() => alert.innerText(), { message: name }).toBe(message);
      expect(await panel.getByText(/^Replayed from/).count(), name).toBe(0);
    }
    // And a good file after a bad one replays.
    await chooseFile(panel, good);
    await panel.getByText(copy.replay.replayedHeading(good.name, recording.entries.length)).waitFor();
    expect(await alert.count()).toBe(0);

    // No serious axe finding in any of its views, light.
    await panel.getByRole('tab', { name: copy.tabs.machines }).click();
    await passesAxe(page, panel, 'light');
  });

  it('shows each machine live and the journal as events arrive (wallet disconnected → connected)', async () => {
    const { page } = await openPortal({ path: '/?devtools', wallet: { account: viewer } });
    const panel = await openPanel(page);
    const wallet = machine(panel, 'wallet');
    await expect.poll(() => statesOf(wallet, 'wallet')).toEqual(['disconnected']);
    expect(await statesOf(machine(panel, 'portal'), 'portal')).toEqual(PORTAL_VISITOR_STATES);
    expect(await statesOf(machine(panel, 'theme'), 'theme')).toEqual(['light']);

    // The journal, open while the wallet connects: the view's event arrives on its own.
    await panel.getByRole('tab', { name: copy.tabs.journal }).click();
    const journal = panel.getByRole('list', { name: copy.journal.heading });
    await journal.getByText('xstate.init').first().waitFor();
    expect(await journal.getByText('wallet.connect', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();
    await journal.getByText('wallet.connect', { exact: true }).first().waitFor();
    // Newest first: the wallet's report that followed the click is above the click.
    const entry = (type: string) =>
      journal
        .locator(':scope > li')
        .filter({ has: page.getByText(type, { exact: true }) })
        .first();
    await entry('wallet.connected').waitFor();
    const seqIn = (text: string) => Number(/#(\d+)/.exec(text)?.[1]);
    expect(seqIn(await entry('wallet.connected').innerText())).toBeGreaterThan(
      seqIn(await entry('wallet.connect').innerText()),
    );
    const seqs = (await journal.locator(':scope > li').allInnerTexts()).map(seqIn);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

    // An entry unfolds to its payload.
    await entry('wallet.connected').locator('summary').click();
    await entry('wallet.connected').getByText(new RegExp(viewer.address, 'i')).waitFor();

    await panel.getByRole('tab', { name: copy.tabs.machines }).click();
    await expect.poll(() => statesOf(wallet, 'wallet')).toContain('connected.network.rightNetwork');
    await screenshot(page, 'devtools-machines');
  });

  it('shows the Trading tab’s machines while the tab is shown, in the journal too, and none once it closes', async () => {
    const { page } = await openPortal({ path: '/?devtools', wallet: { account: viewer } });
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();
    const panel = await openPanel(page);
    const trading = ['trading', 'trading/market', 'trading/swap'];
    for (const id of trading) expect(await statesOf(machine(panel, id), id)).toEqual([copy.machines.missing]);

    await page
      .getByRole('navigation', { name: shellCopy.sections })
      .getByRole('button', { name: appCopy.tabs.trading })
      .click();
    await expect
      .poll(() => statesOf(machine(panel, 'trading/market'), 'trading/market'))
      .toEqual(['live.following']);
    // The connected wallet on the right network, nothing typed yet.
    expect(await statesOf(machine(panel, 'trading/swap'), 'trading/swap')).not.toEqual([
      copy.machines.missing,
    ]);
    expect(await statesOf(machine(panel, 'portal'), 'portal')).toContain('tabActors.trading.running');
    await panel.getByRole('tab', { name: copy.tabs.journal }).click();
    const journal = panel.getByRole('list', { name: copy.journal.heading });
    await journal.getByText('xstate.done.actor.loadTrading', { exact: true }).first().waitFor();

    await page
      .getByRole('navigation', { name: shellCopy.sections })
      .getByRole('button', { name: appCopy.tabs.portal })
      .click();
    await panel.getByRole('tab', { name: copy.tabs.machines }).click();
    for (const id of trading)
      await expect.poll(() => statesOf(machine(panel, id), id)).toEqual([copy.machines.missing]);
  });

  it('exports the journal without any secret of a sign-up, and replays it to the same states', async () => {
    const { page } = await openPortal({ path: '/?devtools', wallet: { account: viewer }, clock: true });
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();

    // A sign-up with a password nobody else uses.
    const email = uniqueEmail('devtools');
    const password = `Devtools-${randomUUID()}`;
    await page.getByRole('button', { name: authCopy.signUp, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: authCopy.titleSignUp });
    await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
    await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(password);
    await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();
    await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
    const session = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((name) => name.endsWith('-auth-token'));
      return key ? (JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, string>) : {};
    });
    expect(session.access_token).toBeTruthy();

    const panel = await openPanel(page);
    // The wallet's proof for the new profile has had its say (linked, or refused with a toast).
    await expect.poll(() => statesOf(machine(panel, 'profile'), 'profile')).toEqual(['ready']);
    // Let the last toast run out on the page's clock, so the live states stay put while the export
    // is compared.
    await page.clock.fastForward(toastDurations.default);
    await expect.poll(() => statesOf(machine(panel, 'toast'), 'toast')).toEqual(['idle']);
    const live = await liveStates(panel);
    expect(live.auth).toContain('session.available.signedIn');

    const file = await exportJournal(page, panel);
    expect(file.name).toMatch(/^ddex-journal-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.json$/);
    const recording = JSON.parse(file.text) as JournalExport;
    expect(recording).toMatchObject({ format: 'ddex-journal', version: 1, truncated: false });
    expect(recording.entries.length).toBeGreaterThan(10);
    const submit = recording.entries.find((entry) => entry.event.type === 'auth.submit');
    expect(submit?.event).toMatchObject({ password: '[redacted]' });
    expect(recording.entries.some((entry) => entry.event.type === 'wallet.connect')).toBe(true);
    // Neither the password nor the session's tokens, anywhere in the file.
    expect(file.text).not.toContain(password);
    expect(file.text).not.toContain(session.access_token);
    if (session.refresh_token) expect(file.text).not.toContain(session.refresh_token);

    // Import the same file: the replay rebuilds every machine in the state it is in live.
    await chooseFile(panel, file);
    const replayed = panel.getByRole('region', {
      name: copy.replay.replayedHeading(file.name, recording.entries.length),
    });
    const outcome = async () =>
      (await panel.getByRole('alert').count())
        ? await panel.getByRole('alert').innerText()
        : (await replayed.count())
          ? 'replayed'
          : null;
    await expect.poll(outcome, { timeout: 20_000 }).toBe('replayed');
    // Every machine that runs live (the tabs' actors do not: the portal tab is shown).
    for (const id of MACHINE_IDS.filter((name) => live[name]?.[0] !== copy.machines.missing)) {
      const card = machine(replayed, `${id} ${copy.replay.replayedBadge}`);
      expect(await statesOf(card, id), id).toEqual(live[id]);
      await card.getByText(copy.replay.sameAsLive, { exact: true }).waitFor();
    }
    await screenshot(page, 'devtools-replay');
  });

  it('draws a machine diagram offline with its current state highlighted, loading Mermaid only then', async () => {
    const { page, externalRequests } = await openPortal({ path: '/?devtools', wallet: { account: viewer } });
    const panel = await openPanel(page);
    const wallet = machine(panel, 'wallet');
    await expect.poll(() => statesOf(wallet, 'wallet')).toEqual(['disconnected']);
    expect((await requestedScripts(page)).some((url) => MERMAID_CHUNK.test(url))).toBe(false);

    await wallet.getByRole('button', { name: copy.machines.showDiagram('wallet') }).click();
    await panel
      .getByRole('img', { name: copy.diagram.label('wallet', 'disconnected') })
      .waitFor({ timeout: 30_000 });
    expect((await requestedScripts(page)).some((url) => MERMAID_CHUNK.test(url))).toBe(true);
    const drawing = panel.getByRole('img', { name: /^Statechart of wallet;/ });
    const highlighted = async () =>
      (await drawing.locator('g.node.active').allTextContents()).map((text) => text.trim());
    expect(await highlighted()).toEqual(['disconnected']);
    // Laid out at a sane size (the portal's reduced-motion rule once made mermaid measure mid-transition).
    const [, , width = 0, height = 0] = ((await drawing.getAttribute('viewBox')) ?? '')
      .split(/\s+/)
      .map(Number);
    expect(width).toBeGreaterThan(200);
    expect(width).toBeLessThan(6000);
    expect(height).toBeLessThan(6000);
    // The current state is scrolled into view in the figure.
    expect(await drawing.locator('g.node.active').first().isVisible()).toBe(true);
    await screenshot(page, 'devtools-diagram');

    // It follows the machine: connect, and the highlight moves.
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await panel.getByRole('img', { name: /current state: connected\.network\.rightNetwork/ }).waitFor();
    await expect.poll(highlighted).toEqual(expect.arrayContaining(['rightNetwork']));
    expect(await highlighted()).not.toContain('disconnected');

    // Another machine from the list.
    await panel.getByLabel(copy.diagram.machineLabel).selectOption('theme');
    await panel.getByRole('img', { name: copy.diagram.label('theme', 'light') }).waitFor();
    expect(externalRequests).toEqual([]);
  });

  it("colours on the diagram what this session has taken: the wallet's connect, not what it never did", async () => {
    const { page, externalRequests } = await openPortal({ path: '/?devtools', wallet: { account: viewer } });
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();
    const panel = await openPanel(page);
    const wallet = machine(panel, 'wallet');
    await expect.poll(() => statesOf(wallet, 'wallet')).toContain('connected.network.rightNetwork');
    await wallet.getByRole('button', { name: copy.machines.showDiagram('wallet') }).click();
    const drawing = panel.getByRole('img', { name: /^Statechart of wallet;/ });
    await drawing.waitFor({ timeout: 30_000 });
    expect(await drawing.locator(`.${TAKEN_LINE_CLASS}`).count()).toBe(0);

    await panel.getByRole('button', { name: copy.diagram.session, exact: true }).click();
    const takenLines = () => drawing.locator(`.${TAKEN_LINE_CLASS}`).allTextContents();
    await expect.poll(takenLines, { timeout: 30_000 }).toContain('wallet.connect');
    const taken = await takenLines();
    // Two arrows say wallet.connect (from disconnected, and noProvider's own); the session took one.
    const connectLines = drawing.locator('g.edgeLabel p').filter({ hasText: /^wallet\.connect$/ });
    expect(await connectLines.count()).toBe(2);
    expect(taken.filter((text) => text === 'wallet.connect')).toHaveLength(1);
    expect(taken).toEqual(expect.arrayContaining(['done requestAccounts']));
    for (const never of ['wallet.switchNetwork', 'wallet.disconnect', 'error requestAccounts'])
      expect(taken, never).not.toContain(never);
    // Drawn in colour: a taken arrow's stroke is not an untaken one's.
    const stroke = (selector: string) =>
      drawing
        .locator(selector)
        .first()
        .evaluate((path) => getComputedStyle(path).stroke);
    expect(await stroke(`path[data-edge].${TAKEN_EDGE_CLASS}`)).not.toBe(
      await stroke(`path[data-edge]:not(.${TAKEN_EDGE_CLASS})`),
    );
    // The states it has been in are filled; the one it never reached is not.
    const states = (await drawing.locator(`g.node.${TAKEN_CLASS}`).allTextContents()).map((t) => t.trim());
    expect(states).toEqual(expect.arrayContaining(['disconnected', 'connecting', 'rightNetwork']));
    expect(states).not.toContain('wrongNetwork');
    // The legend counts the transitions taken against all of the machine's.
    await panel
      .getByText(copy.diagram.sessionLegend(taken.length, allTransitionKeys(walletMachine).length), {
        exact: true,
      })
      .waitFor();
    expect(externalRequests).toEqual([]);
    expect(
      await runAxe(page, 'devtools diagram with the session overlay', { include: '#devtools-panel' }),
    ).toEqual([]);
  });

  it('passes axe with the panel open, dark', async () => {
    const { page } = await openPortal({ path: '/?devtools', colorScheme: 'dark' });
    await passesAxe(page, await openPanel(page), 'dark');
  });
});

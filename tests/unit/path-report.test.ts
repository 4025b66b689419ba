import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { loadMachines } from '../../scripts/diagrams.ts';
import { CHROMIUM_ARGS, chromiumPath, chromiumProblem } from '../support/e2e/chromium.ts';
import {
  CoverageRecorder,
  allStateIds,
  allTransitionKeys,
  coverageDiagram,
  readCoverageFiles,
  writeCoverage,
  type CoverageFile,
} from '../support/model/coverage.ts';
import { pathsReportData, writePathsReport, type ReportMachine } from '../support/model/report.ts';
import { renderPathsPage } from '../support/model/report-page.ts';

// The path coverage report (reports/paths/*.html): the data it is drawn from
// (what a path highlights, what is marked uncovered), the page's escaping, and
// the page itself in Chromium, where Mermaid really draws it: the arrows it
// colours must be the ones the data names.

const doorChart = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { 'door.open': 'open', 'door.lock': 'locked' } },
    open: {
      initial: 'wide',
      states: { wide: { on: { 'door.narrow': 'ajar' } }, ajar: {} },
      on: { 'door.close': 'closed' },
    },
    locked: { on: { 'door.unlock': 'closed' } },
  },
});

const OPEN_AND_CLOSE = 'path 1: door.open → door.close';
const LOCK = 'path 2: door.lock';

/** The door's coverage as the model runner writes it: two paths, each a fresh actor. */
function doorCoverage(dir: string): CoverageFile[] {
  const recorder = new CoverageRecorder();
  const run = (title: string, events: string[]) => {
    recorder.beginPath(title);
    const actor = createActor(doorChart, { inspect: recorder.inspect }).start();
    for (const type of events) actor.send({ type });
    actor.stop();
  };
  run(OPEN_AND_CLOSE, ['door.open', 'door.close']);
  run(LOCK, ['door.lock']);
  writeCoverage(dir, 'door', doorChart, 2, recorder);
  return readCoverageFiles(dir);
}

/** The diagram's arrows as its source writes them, numbered as Mermaid numbers them: every `-->` line in order. */
function arrowsOf(source: string): { from: string; to: string; labels: string[] }[] {
  return source
    .split('\n')
    .filter((line) => line.includes(' --> '))
    .map((line) => {
      const [, from = '', to = '', label = ''] = /^\s*(\S+) --> ([^:]+?)(?:: (.*))?$/.exec(line) ?? [];
      return { from, to, labels: label === '' ? [] : label.split('<br/>') };
    });
}

const labelAt = (machine: ReportMachine, edge: number, line: number) =>
  arrowsOf(machine.source)[edge]?.labels[line];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'path-report-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the report data', () => {
  it("highlights a path's own states and arrows", () => {
    const [door] = pathsReportData('Door', doorCoverage(join(dir, 'data'))).machines;
    if (!door) throw new Error('no door');
    const path = door.pathList.find((p) => p.title === OPEN_AND_CLOSE);
    const arrows = arrowsOf(door.source);
    const taken = path?.lines.map(([edge, line]) => ({ ...arrows[edge], label: labelAt(door, edge, line) }));
    expect(taken?.map(({ from, to, label }) => `${from} --> ${to}: ${label}`).sort()).toEqual([
      'closed --> open: door.open',
      'open --> closed: door.close',
    ]);
    expect(path?.nodes.sort()).toEqual(['closed', 'open', 'open__wide']);
    const lock = door.pathList.find((p) => p.title === LOCK);
    expect(lock?.lines.map(([edge, line]) => labelAt(door, edge, line))).toEqual(['door.lock']);
  });

  it('marks what no path covered, in the drawing and in the list', () => {
    const [door] = pathsReportData('Door', doorCoverage(join(dir, 'marks'))).machines;
    if (!door) throw new Error('no door');
    const uncovered = door.lines.filter((line) => !line.covered).map((l) => labelAt(door, l.edge, l.line));
    expect(uncovered.sort()).toEqual(['door.narrow', 'door.unlock']);
    expect(door.lines.filter((line) => line.covered)).toHaveLength(allTransitionKeys(doorChart).length - 2);
    expect(door.missing.map(({ kind, name }) => `${kind} ${name}`)).toEqual([
      'state door.open.ajar',
      ...door.lines.filter((line) => !line.covered).map((line) => `transition ${line.key}`),
    ]);
    const classLines = door.source.split('\n').filter((line) => line.startsWith('  class '));
    expect(classLines).toContain('  class open__ajar notCovered');
    expect(classLines).toContain('  class open coveredBox');
    const states = allStateIds(doorChart).length;
    expect(door.states).toEqual({ covered: states - 1, total: states });
  });

  it('escapes what it puts into the page', () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const script = '</script><script>alert("x")</script>';
    const files = doorCoverage(join(dir, 'escape')).map((file) => ({
      ...file,
      machine: hostile,
      pathDetails: file.pathDetails.map((detail) => ({ ...detail, title: script })),
    }));
    const reasons = { [hostile]: { 'door.open.ajar': 'a <b>bold</b> & "quoted" reason' } };
    const data = pathsReportData(`Report ${hostile}`, files, { reasons });
    const html = renderPathsPage(data);
    expect(html).not.toContain(hostile);
    expect(html).not.toContain(script);
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;');
    // The data travels as JSON in a script element, which it cannot end: it reads back whole.
    const json = /<script type="application\/json" id="report-data">([^]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual(data);
  });
});

describe('the report page in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];

  beforeAll(async () => {
    const problem = chromiumProblem(chromiumPath());
    if (problem) throw new Error(problem);
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    // Every machine of the portal (their diagrams are the hard cases: nesting, parallel regions,
    // "any state"), each with every other transition covered, and the door with its paths.
    const machines = await loadMachines();
    const files: CoverageFile[] = machines.map(({ name, machine }) => {
      const transitions = allTransitionKeys(machine);
      return {
        machine: name,
        paths: 0,
        states: { total: allStateIds(machine), covered: allStateIds(machine) },
        transitions: { total: transitions, covered: transitions.filter((_, index) => index % 2 === 0) },
        pathDetails: [],
        diagram: coverageDiagram(machine),
      };
    });
    const file = writePathsReport(join(dir, 'page', 'index.html'), 'Paths', [
      ...files,
      ...doorCoverage(join(dir, 'page-door')),
    ]);
    page = await browser.newPage();
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await page.locator('body[data-drawn="true"]').waitFor({ timeout: 60_000 });
  }, 120_000);
  afterAll(() => browser?.close());

  const data = () =>
    JSON.parse(
      readFileSync(join(dir, 'page', 'index.html'), 'utf8').match(
        /<script type="application\/json" id="report-data">([^]*?)<\/script>/,
      )?.[1] ?? 'null',
    ) as ReturnType<typeof pathsReportData>;

  it('draws every diagram offline, and colours each transition on its own label line', async () => {
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    const { machines } = data();
    for (const [index, machine] of machines.entries()) {
      const figure = page.locator(`#machine-${index}-drawing`);
      expect(await figure.getAttribute('data-state'), machine.machine).toBe('drawn');
      const drawn = await figure.evaluate((element) => ({
        lines: [...element.querySelectorAll('.label-line')].map((line) => ({
          edge: Number(/^edge(\d+)$/.exec(line.closest('g.label')?.getAttribute('data-id') ?? '')?.[1]),
          line: [...(line.parentElement?.querySelectorAll(':scope > .label-line') ?? [])].indexOf(line),
          text: line.textContent,
          covered: line.classList.contains('cov-covered'),
          missing: line.classList.contains('cov-missing'),
        })),
        arrows: {
          covered: element.querySelectorAll('path[data-edge].cov-covered').length,
          missing: element.querySelectorAll('path[data-edge].cov-missing').length,
          partial: element.querySelectorAll('path[data-edge].cov-partial').length,
        },
      }));
      // Each line Mermaid drew is the one the data names, coloured as the data says.
      const expected = machine.lines.map(({ edge, line, covered }) => ({
        edge,
        line,
        text: labelAt(machine, edge, line),
        covered,
        missing: !covered,
      }));
      expect(drawn.lines, machine.machine).toEqual(expect.arrayContaining(expected));
      expect(drawn.lines.filter((line) => line.covered || line.missing)).toHaveLength(expected.length);
      const byEdge = new Map<number, typeof machine.lines>();
      for (const line of machine.lines) byEdge.set(line.edge, [...(byEdge.get(line.edge) ?? []), line]);
      const all = [...byEdge.values()];
      expect(drawn.arrows, machine.machine).toEqual({
        covered: all.filter((lines) => lines.every((line) => line.covered)).length,
        missing: all.filter((lines) => lines.every((line) => !line.covered)).length,
        partial: all.filter((lines) => lines.some((l) => l.covered) && lines.some((l) => !l.covered)).length,
      });
    }
  });

  it('links to the other report pages once they exist, and they link back', async () => {
    const index = page.url();
    const nav = page.getByRole('navigation', { name: 'Path coverage reports' });
    expect(await nav.getByRole('link').count()).toBe(0);
    writePathsReport(join(dir, 'page', 'ui.html'), 'UI paths', doorCoverage(join(dir, 'ui-door')), {
      goal: 0.5,
      summaryLabel: 'ui paths',
    });
    await page.goto(pathToFileURL(join(dir, 'page', 'ui.html')).href);
    await nav.getByRole('link', { name: 'Paths', exact: true }).click();
    await page.waitForURL(index);
    await page.locator('body[data-drawn="true"]').waitFor({ timeout: 60_000 });
    expect(await nav.getByRole('link', { name: 'UI paths', exact: true }).getAttribute('href')).toBe(
      'ui.html',
    );
    expect(await nav.getByRole('link', { name: 'Paths', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    // Back on the index, the page draws every machine's diagram again: the same work the first
    // load is given a minute for, which on a loaded two-core machine outlasts the 5 s default.
  }, 90_000);

  it('highlights a clicked path, and clears it on a second click', async () => {
    const { machines } = data();
    const index = machines.findIndex((machine) => machine.machine === 'door');
    const door = machines[index];
    if (!door) throw new Error('no door');
    const figure = page.locator(`#machine-${index}-drawing`);
    const button = page.getByRole('button', { name: OPEN_AND_CLOSE, exact: true });
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await figure.locator('path[data-edge].on-path').count()).toBe(2);
    expect((await figure.locator('.label-line.on-path').allTextContents()).sort()).toEqual([
      'door.close',
      'door.open',
    ]);
    expect(await figure.locator('g.node.on-path, g.statediagram-cluster.on-path').count()).toBe(3);
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await figure.locator('.on-path').count()).toBe(0);
  });
});

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { mergeCoverage, measureCoverage, readCoverageFiles, type CoverageFile } from './coverage.ts';
import { renderPathsPage } from './report-page.ts';
import { formatCoverage, type CoverageOptions } from './table.ts';

// The coverage report a tester can open: reports/paths/index.html (the model
// paths) and reports/paths/ui.html (the UI-driven paths), each machine's
// diagram with what the paths covered in green and what they did not in red,
// and the paths under it. This module turns coverage files into the page's
// data; report-page.ts writes the page.

/** Colours of the states, as Mermaid classes: fills for states, outlines for the boxes around children. */
export const STATE_CLASSES = {
  covered: 'covered',
  notCovered: 'notCovered',
  coveredBox: 'coveredBox',
  notCoveredBox: 'notCoveredBox',
} as const;

const CLASS_DEFS = [
  `  classDef ${STATE_CLASSES.covered} fill:#dcfce7,stroke:#15803d,stroke-width:2px,color:#14532d`,
  `  classDef ${STATE_CLASSES.notCovered} fill:#fee2e2,stroke:#b91c1c,stroke-width:2px,stroke-dasharray:6 3,color:#7f1d1d`,
  `  classDef ${STATE_CLASSES.coveredBox} stroke:#15803d,stroke-width:3px`,
  `  classDef ${STATE_CLASSES.notCoveredBox} stroke:#b91c1c,stroke-width:3px,stroke-dasharray:6 3`,
];

/** One line of an arrow's label: the transition it names, and whether the paths took it. */
export type ReportLine = { edge: number; line: number; key: string; covered: boolean };

/** A path as the page highlights it: the diagram's node ids and [edge, line] pairs it took. */
export type ReportPath = { title: string; nodes: string[]; lines: [number, number][] };

export type ReportMachine = {
  machine: string;
  paths: number;
  states: { covered: number; total: number };
  transitions: { covered: number; total: number };
  /** The diagram's Mermaid source with the states' classes added. */
  source: string;
  lines: ReportLine[];
  missing: { kind: 'state' | 'transition'; name: string; reason: string | null }[];
  pathList: ReportPath[];
};

export type ReportData = {
  title: string;
  /** The summary line of the table (`paths: P, states: …`). */
  summary: string;
  passed: boolean;
  goal: number;
  machines: ReportMachine[];
};

function colouredSource(file: CoverageFile): string {
  const { nodes, boxes, source } = file.diagram;
  const covered = new Set(file.states.covered);
  const boxSet = new Set(boxes);
  const byClass = new Map<string, string[]>();
  for (const id of file.states.total) {
    const node = nodes[id];
    if (node === undefined) continue;
    const box = boxSet.has(node);
    const name = covered.has(id)
      ? box
        ? STATE_CLASSES.coveredBox
        : STATE_CLASSES.covered
      : box
        ? STATE_CLASSES.notCoveredBox
        : STATE_CLASSES.notCovered;
    byClass.set(name, [...(byClass.get(name) ?? []), node]);
  }
  const classLines = [...byClass].map(([name, ids]) => `  class ${ids.join(',')} ${name}`);
  return `${[source.trimEnd(), ...CLASS_DEFS, ...classLines].join('\n')}\n`;
}

function machineData(file: CoverageFile, reasons: Record<string, string>): ReportMachine {
  const row = measureCoverage(file);
  const { nodes, transitions: drawn } = file.diagram;
  const covered = new Set(file.transitions.covered);
  const lines = Object.entries(drawn)
    .flatMap(([key, places]) =>
      places.map(({ edge, line }) => ({ edge, line, key, covered: covered.has(key) })),
    )
    .sort((a, b) => a.edge - b.edge || a.line - b.line);
  const missing = [
    ...row.states.missing.map((name) => ({ kind: 'state' as const, name })),
    ...row.transitions.missing.map((name) => ({ kind: 'transition' as const, name })),
  ].map((item) => ({ ...item, reason: reasons[item.name] ?? null }));
  const pathList = file.pathDetails.map(({ title, states, transitions }) => ({
    title,
    nodes: states.flatMap((id) => nodes[id] ?? []),
    lines: transitions.flatMap((key) =>
      (drawn[key] ?? []).map(({ edge, line }): [number, number] => [edge, line]),
    ),
  }));
  return {
    machine: file.machine,
    paths: file.paths,
    states: { covered: row.states.covered, total: row.states.total },
    transitions: { covered: row.transitions.covered, total: row.transitions.total },
    source: colouredSource(file),
    lines,
    missing,
    pathList,
  };
}

/** The page's data from the coverage files of a run (merged by machine, as the table merges them). */
export function pathsReportData(
  title: string,
  files: readonly CoverageFile[],
  options: CoverageOptions = {},
): ReportData {
  const merged = mergeCoverage(files);
  const verdict = formatCoverage(merged.map(measureCoverage), options);
  return {
    title,
    summary: verdict.text.trimEnd().split('\n').at(-1) ?? '',
    passed: verdict.complete,
    goal: options.goal ?? 1,
    machines: merged.map((file) => machineData(file, options.reasons?.[file.machine] ?? {})),
  };
}

const MANIFEST = 'reports.js';
const MANIFEST_PREFIX = 'window.pathReports = ';
type ReportLink = { file: string; title: string };

/**
 * The pages of the report directory, for each page's links to the others. A script rather than
 * JSON: a page opened from the disk (file://) may load a script next to it but not fetch a file.
 */
function updateManifest(dir: string, page: string, title: string): void {
  const path = join(dir, MANIFEST);
  let known: ReportLink[];
  try {
    const text = readFileSync(path, 'utf8').trim();
    known = JSON.parse(text.slice(MANIFEST_PREFIX.length).replace(/;$/, '')) as ReportLink[];
  } catch {
    // None yet, or not ours: the pages written from now on are listed.
    known = [];
  }
  const links = [...known.filter((link) => link.file !== page), { file: page, title }]
    .filter((link) => existsSync(join(dir, link.file)))
    .sort(
      (a, b) =>
        Number(b.file === 'index.html') - Number(a.file === 'index.html') || a.file.localeCompare(b.file),
    );
  writeFileSync(path, `${MANIFEST_PREFIX}${JSON.stringify(links)};\n`);
}

/** Mermaid's browser bundle, put next to the page: the page draws offline, with no CDN. */
function copyMermaid(dir: string): void {
  const require = createRequire(import.meta.url);
  copyFileSync(require.resolve('mermaid/dist/mermaid.min.js'), join(dir, 'mermaid.min.js'));
}

/**
 * Writes the report page `file` (e.g. reports/paths/index.html) from a directory of coverage
 * files or the files themselves, with Mermaid's bundle and the list of report pages next to it.
 * Returns the page's path.
 */
export function writePathsReport(
  file: string,
  title: string,
  coverage: string | readonly CoverageFile[],
  options: CoverageOptions = {},
): string {
  const files = typeof coverage === 'string' ? readCoverageFiles(coverage) : coverage;
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  copyMermaid(dir);
  writeFileSync(file, renderPathsPage(pathsReportData(title, files, options)));
  updateManifest(dir, basename(file), title);
  return file;
}

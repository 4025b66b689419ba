import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { plain, type Table } from './report.ts';

// Where the load stack's CPU goes: reads the V8 profile Node's --cpu-prof wrote
// for the stack process (bench/load/stack.ts) and adds up each sample's self
// time by area — a package (bcryptjs, PGlite, the SQL parser, lite), a folder
// of ours (the gateway, its realtime server), Node's own HTTP and streams, GC —
// so the report can say which part of one event loop the load is waiting on.
// Frames that name no area of their own (WebAssembly functions, V8 builtins,
// native bindings) count for the nearest caller that does: PGlite's Postgres
// is WebAssembly called from PGlite's JavaScript, and the SQL parser's from
// libpg-query's.

/** The parts of a `.cpuprofile` (Chrome DevTools' format) this module reads. */
export type CpuProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};

export type CpuProfile = {
  nodes: CpuProfileNode[];
  /** µs on the monotonic clock, as process.hrtime. */
  startTime: number;
  endTime: number;
  /** The node id on top of the stack at each sample. */
  samples: number[];
  /** µs from the previous sample (the first from startTime). */
  timeDeltas: number[];
};

/** A span on the monotonic clock in µs (bench/load/stack.ts StackCpu). */
export type ProfileWindow = { fromUs: number; toUs: number };

export type AreaTime = { area: string; ms: number; shareOfBusy: number };

export type ProfileSummary = {
  /** Sampled time counted, ms: the window's, or the whole profile's when no window overlapped. */
  spanMs: number;
  idleMs: number;
  busyMs: number;
  /** Whether only the samples inside the window were counted. */
  windowed: boolean;
  /** Busy areas, most self time first; idle is not among them. */
  areas: AreaTime[];
};

export const IDLE = 'idle';
export const PGLITE = 'PGlite';
/** WebAssembly counts for its caller's area, named so. */
export const inWebAssembly = (area: string) => `${area} (WebAssembly)`;
/** Areas a report shows; the rest are summed. */
export const PROFILE_TOP = 12;

/** Packages by area; a package not listed is its own area under its own name. */
const PACKAGE_AREAS: readonly [RegExp, string][] = [
  [/^bcryptjs$/, 'bcryptjs (password hashes)'],
  [/^@electric-sql\/pglite$/, PGLITE],
  [/^libpg-query$/, 'libpg-query (SQL parser)'],
  [/^(pgsql-parser|pgsql-deparser|@pgsql\/.*)$/, 'pgsql-parser / pgsql-deparser'],
  [/^@supabase\/lite$/, '@supabase/lite (router, auth, REST, SQL translation)'],
  [/^kysely(-.*)?$/, 'kysely (lite’s SQL builder)'],
  [/^(hono|@hono\/.*)$/, 'hono (lite’s HTTP router)'],
  [/^jose$/, 'jose (JWT)'],
  [/^ws$/, 'ws (WebSocket)'],
  [/^(hardhat|@nomicfoundation\/.*|@ethereumjs\/.*|ethereum-cryptography)$/, 'Hardhat (the chain)'],
  [/^(viem|ox|abitype|@noble\/.*|@scure\/.*)$/, 'viem / noble'],
  [/^(tsx|esbuild)$/, 'tsx (TypeScript loading)'],
];

/** Our folders by area, most specific first (paths relative to the project). */
const PROJECT_AREAS: readonly [string, string][] = [
  ['stack/gateway/realtime/', 'our realtime (stack/gateway/realtime)'],
  ['stack/gateway/tatum/', 'our Tatum emulator (stack/gateway/tatum)'],
  ['stack/gateway/', 'our gateway (stack/gateway)'],
  ['stack/chain/', 'our chain (stack/chain)'],
  ['bench/', 'bench (the stack process)'],
];

const NODE_IO = 'Node HTTP, net and streams';
const NODE_IO_MODULES =
  /^node:(_http_|http|https|net|stream|_stream|internal\/(http|streams|webstreams|stream_base_commons|net|js_stream_socket|child_process))/;

function packageOf(url: string): string | null {
  const at = url.lastIndexOf('/node_modules/');
  if (at === -1) return null;
  const parts = url.slice(at + '/node_modules/'.length).split('/');
  const [first = '', second = ''] = parts;
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * The area a frame's own code belongs to, or null when it names none and counts for its caller:
 * WebAssembly, V8 builtins and native bindings (no URL), and the profile's root.
 */
export function areaOfFrame(frame: CpuProfileNode['callFrame'], projectDir: string): string | null {
  const { functionName, url } = frame;
  if (functionName === '(idle)') return IDLE;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 and native code outside JS ("(program)")';
  if (url === '') {
    // JSON.parse and JSON.stringify are builtins: no URL, their own name.
    return functionName === 'parse' || functionName === 'stringify' ? 'JSON' : null;
  }
  if (url.startsWith('wasm://')) return null;
  const pkg = packageOf(url);
  if (pkg !== null) return PACKAGE_AREAS.find(([test]) => test.test(pkg))?.[1] ?? pkg;
  if (url.startsWith('node:internal/deps/undici')) return 'undici (fetch)';
  if (/^node:(internal\/)?crypto/.test(url)) return 'Node crypto';
  if (/^node:(internal\/)?fs/.test(url)) return 'Node fs';
  if (url.startsWith('node:')) return NODE_IO_MODULES.test(url) ? NODE_IO : 'Node internals';
  const root = `file://${projectDir.endsWith('/') ? projectDir : `${projectDir}/`}`;
  if (url.startsWith(root)) {
    const path = url.slice(root.length);
    return PROJECT_AREAS.find(([folder]) => path.startsWith(folder))?.[1] ?? 'our code (other)';
  }
  return 'other';
}

/** Each node's area: its own, or its nearest caller's (WebAssembly as "<caller's area> (WebAssembly)"). */
function nodeAreas(profile: CpuProfile, projectDir: string): Map<number, string> {
  const areas = new Map<number, string>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hasParent = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  // Depth-first with a list rather than recursion: call trees can run deep.
  const pending = profile.nodes
    .filter((node) => !hasParent.has(node.id))
    .map((node) => ({ id: node.id, inherited: 'other', inWasm: false }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { id, inherited, inWasm } = next;
    const node = byId.get(id);
    if (!node || areas.has(id)) continue;
    const own = areaOfFrame(node.callFrame, projectDir);
    const wasm = own === null && (inWasm || node.callFrame.url.startsWith('wasm://'));
    areas.set(id, own ?? (wasm ? inWebAssembly(inherited) : inherited));
    // JavaScript called back from WebAssembly (PGlite's file system, say) names its own area again.
    for (const child of node.children ?? [])
      pending.push({ id: child, inherited: own ?? inherited, inWasm: wasm });
  }
  return areas;
}

/** Self time per area, within `window` when given and overlapping the profile. */
export function summarizeProfile(
  profile: CpuProfile,
  { projectDir, window }: { projectDir: string; window?: ProfileWindow },
): ProfileSummary {
  const areas = nodeAreas(profile, projectDir);
  const stamps: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) stamps.push((at += delta));
  const overlaps = window !== undefined && window.fromUs < profile.endTime && window.toUs > profile.startTime;
  const inside = (stamp: number) => !overlaps || (stamp >= window.fromUs && stamp < window.toUs);
  const totals = new Map<string, number>();
  let spanUs = 0;
  profile.samples.forEach((id, index) => {
    const stamp = stamps[index] ?? profile.endTime;
    if (!inside(stamp)) return;
    // A sample stands for the time until the next one.
    const us = Math.max(0, (stamps[index + 1] ?? profile.endTime) - stamp);
    const area = areas.get(id) ?? 'other';
    totals.set(area, (totals.get(area) ?? 0) + us);
    spanUs += us;
  });
  const idleUs = totals.get(IDLE) ?? 0;
  const busyUs = spanUs - idleUs;
  return {
    spanMs: spanUs / 1000,
    idleMs: idleUs / 1000,
    busyMs: busyUs / 1000,
    windowed: overlaps,
    areas: [...totals]
      .filter(([area]) => area !== IDLE)
      .map(([area, us]) => ({ area, ms: us / 1000, shareOfBusy: busyUs > 0 ? us / busyUs : 0 }))
      .sort((a, b) => b.ms - a.ms),
  };
}

/**
 * The main thread's profile among those Node wrote into `dir` (CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile,
 * thread 0 being the main one), or the largest file when none is named so; null when there is none.
 */
export function readMainProfile(dir: string): { path: string; profile: CpuProfile } | null {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return null;
  }
  const main = files.find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  const chosen =
    main ??
    files.map((name) => ({ name, size: statSync(join(dir, name)).size })).sort((a, b) => b.size - a.size)[0]
      ?.name;
  if (chosen === undefined) return null;
  const path = join(dir, chosen);
  return { path, profile: JSON.parse(readFileSync(path, 'utf8')) as CpuProfile };
}

const share = (value: number) => `${(value * 100).toFixed(1)} %`;

/** A profile's top areas by self time, with their share of the not-idle (busy) time, and idle apart. */
export function profileTable(profile: ProfileSummary, top = PROFILE_TOP): Table {
  const restMs = profile.areas.slice(top).reduce((sum, area) => sum + area.ms, 0);
  return {
    head: ['area (self time)', 'CPU s', 'share of the not-idle time'],
    right: [false, true, true],
    rows: [
      ...profile.areas
        .slice(0, top)
        .map((area) => [area.area, (area.ms / 1000).toFixed(2), share(area.shareOfBusy)]),
      ['(the rest)', (restMs / 1000).toFixed(2), share(profile.busyMs > 0 ? restMs / profile.busyMs : 0)],
      [IDLE, (profile.idleMs / 1000).toFixed(2), '–'],
    ],
  };
}

/** The main thread's busy share of the load's wall time, as a percentage of one core. */
export const busyPercent = (profile: ProfileSummary) =>
  profile.spanMs > 0 ? (profile.busyMs / profile.spanMs) * 100 : Number.NaN;

/** The profile as the terminal shows it: what was counted, then the table. */
export function profileReport(profile: ProfileSummary, path: string): string {
  const span = profile.windowed ? 'over the load' : 'over its whole life (no sample fell in the load)';
  return (
    `Stack CPU profile, main thread ${span}: not idle ${(profile.busyMs / 1000).toFixed(1)} s of ` +
    `${(profile.spanMs / 1000).toFixed(1)} s (${busyPercent(profile).toFixed(0)} % of one core); ${path}\n` +
    plain(profileTable(profile))
  );
}

import { describe, expect, it } from 'vitest';
import {
  areaOfFrame,
  IDLE,
  profileTable,
  summarizeProfile,
  type CpuProfile,
  type CpuProfileNode,
} from '../../bench/load/cpu-profile.ts';

// Where `npm run bench:load -- --cpu-prof` says the stack's time went (bench/load/cpu-profile.ts):
// each sample's self time counts for the area of the frame on top, or, for frames that name no
// area (WebAssembly, builtins, native bindings), for the nearest caller's. A hand-made profile in
// the shape Node's --cpu-prof writes, with samples a tenth of a second apart.

const PROJECT = '/repo';
const file = (path: string) => `file://${PROJECT}/${path}`;

function node(id: number, functionName: string, url: string, children: number[] = []): CpuProfileNode {
  return { id, callFrame: { functionName, url }, children };
}

const NODES: CpuProfileNode[] = [
  node(1, '(root)', '', [2, 3, 4, 5, 9, 12]),
  node(2, '(idle)', ''),
  node(3, '(garbage collector)', ''),
  node(4, 'onMessage', file('stack/gateway/realtime/server.ts'), [6]),
  node(6, '_encipher', file('node_modules/bcryptjs/index.js')),
  node(5, 'query', file('node_modules/@electric-sql/pglite/dist/index.js'), [7]),
  node(7, 'wasm-function[12]', 'wasm://wasm/0a1b2c3d', [8, 10]),
  // A builtin called from WebAssembly is still the WebAssembly's.
  node(8, 'memcpy', ''),
  // JavaScript called back from WebAssembly names its own area again.
  node(10, 'readFile', file('node_modules/@electric-sql/pglite/dist/fs.js'), [11]),
  node(11, 'readSync', 'node:fs'),
  node(9, 'parse', ''),
  node(12, 'writevGeneric', 'node:internal/stream_base_commons', [13]),
  node(13, 'writev', ''),
];

const STEP_US = 100_000;

/** Node ids on top of the stack, one sample every STEP_US from t = STEP_US. */
function profile(samples: number[]): CpuProfile {
  return {
    nodes: NODES,
    startTime: 0,
    endTime: (samples.length + 1) * STEP_US,
    samples,
    timeDeltas: samples.map(() => STEP_US),
  };
}

const byArea = (summary: ReturnType<typeof summarizeProfile>) =>
  Object.fromEntries(summary.areas.map((area) => [area.area, area.ms]));

describe('CPU profile by area', () => {
  const samples = [2, 2, 2, 2, 6, 6, 6, 7, 8, 10, 11, 3, 9, 13];

  it('adds up self time per area and leaves idle out of the busy shares', () => {
    const summary = summarizeProfile(profile(samples), { projectDir: PROJECT });
    expect(summary.spanMs).toBe(1400);
    expect(summary.idleMs).toBe(400);
    expect(summary.busyMs).toBe(1000);
    expect(byArea(summary)).toEqual({
      'bcryptjs (password hashes)': 300,
      'PGlite (WebAssembly)': 200,
      PGlite: 100,
      'Node fs': 100,
      GC: 100,
      JSON: 100,
      'Node HTTP, net and streams': 100,
    });
    expect(summary.areas[0]).toEqual({ area: 'bcryptjs (password hashes)', ms: 300, shareOfBusy: 0.3 });
    expect(summary.areas.map((area) => area.area)).not.toContain(IDLE);
    expect(summary.areas.reduce((sum, area) => sum + area.shareOfBusy, 0)).toBeCloseTo(1);
  });

  it('counts only the samples inside the load window when one is given', () => {
    // Samples stand at 1, 2, … × STEP_US; this window holds the 5th to the 8th.
    const summary = summarizeProfile(profile(samples), {
      projectDir: PROJECT,
      window: { fromUs: 5 * STEP_US, toUs: 9 * STEP_US },
    });
    expect(summary.windowed).toBe(true);
    expect(summary.idleMs).toBe(0);
    expect(byArea(summary)).toEqual({ 'bcryptjs (password hashes)': 300, 'PGlite (WebAssembly)': 100 });
  });

  it('falls back to the whole profile when the window misses it', () => {
    const summary = summarizeProfile(profile(samples), {
      projectDir: PROJECT,
      window: { fromUs: 1e9, toUs: 2e9 },
    });
    expect(summary.windowed).toBe(false);
    expect(summary.spanMs).toBe(1400);
  });

  it('names packages, scoped or not, our folders and Node’s modules', () => {
    const area = (url: string, functionName = 'f') => areaOfFrame({ functionName, url }, PROJECT);
    expect(area(file('node_modules/libpg-query/wasm/index.js'))).toBe('libpg-query (SQL parser)');
    expect(area(file('node_modules/@supabase/lite/dist/index.js'))).toMatch(/^@supabase\/lite/);
    expect(area(file('node_modules/@supabase/lite/node_modules/kysely/dist/esm/index.js'))).toMatch(
      /^kysely/,
    );
    expect(area(file('node_modules/left-pad/index.js'))).toBe('left-pad');
    expect(area(file('node_modules/@scope/thing/index.js'))).toBe('@scope/thing');
    expect(area(file('stack/gateway/index.ts'))).toBe('our gateway (stack/gateway)');
    expect(area(file('src/domain/x.ts'))).toBe('our code (other)');
    expect(area('node:internal/deps/undici/undici')).toBe('undici (fetch)');
    expect(area('node:internal/timers')).toBe('Node internals');
    expect(area('wasm://wasm/0a1b2c3d')).toBeNull();
    expect(area('', 'memcpy')).toBeNull();
    expect(area('', '(program)')).toMatch(/program/);
  });

  it('shows the top areas, the rest summed, and idle apart', () => {
    const table = profileTable(summarizeProfile(profile(samples), { projectDir: PROJECT }), 2);
    expect(table.rows).toEqual([
      ['bcryptjs (password hashes)', '0.30', '30.0 %'],
      ['PGlite (WebAssembly)', '0.20', '20.0 %'],
      ['(the rest)', '0.50', '50.0 %'],
      [IDLE, '0.40', '–'],
    ]);
  });
});

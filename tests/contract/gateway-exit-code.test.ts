import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startGateway } from '../../stack/gateway/index.ts';

// The test layers start and close gateways around their tests. PGlite's runtime
// writes process.exitCode (99 as it starts, 0 as it shuts down); unchecked, a
// run with failing tests exited 0 and a clean one 99. A gateway must leave the
// exit code as it found it.

const saved = process.exitCode;
afterEach(() => {
  process.exitCode = saved;
});

it('leaves the exit code alone when it starts, and keeps a failing run failing when it closes', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ddex-exit-code-'));
  try {
    process.exitCode = undefined;
    const gateway = await startGateway({ port: 0, dataDir, quietEmail: true });
    expect(process.exitCode).toBeUndefined();
    process.exitCode = 1;
    await gateway.close();
    expect(process.exitCode).toBe(1);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  // A whole gateway starts here, its Deno function included: as the files that start one in a hook.
}, 60_000);

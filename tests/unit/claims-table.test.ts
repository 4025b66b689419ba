import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/reliability-and-security.md ends with a table: every promise the document makes, beside the
// test that holds it. This keeps the table honest: every row names a test, every named file
// exists, and every named test is in that file (its describe and its own name), so renaming or
// deleting a test without its row fails here.

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'reliability-and-security.md'), 'utf8');

type Reference = { file: string; names: string[]; cell: string };

const tableStart = DOC.indexOf('## Claims and their tests');
const rows = DOC.slice(tableStart)
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| claim') && !/^\|\s*-+/.test(line))
  .map((line) => {
    const cells = line
      .slice(2, -2)
      .split(' | ')
      .map((cell) => cell.trim());
    return { claim: cells[0] ?? '', tests: cells.slice(1).join(' | ') };
  });

/** `file` › describe › … › test, one per `<br>`; an ellipsis (…) stands for the describe of the line before. */
function referencesIn(cell: string): Reference[] {
  const references: Reference[] = [];
  for (const part of cell.split('<br>')) {
    const match = /^`([^`]+)`\s*›\s*(.+)$/.exec(part.trim());
    const previous = references.at(-1);
    if (match?.[1] && match[2]) {
      references.push({ file: match[1], names: splitNames(match[2]), cell: part });
    } else if (part.trim().startsWith('…') && previous) {
      references.push({ file: previous.file, names: splitNames(part.trim().slice(1)), cell: part });
    }
  }
  return references;
}

/** The describe and test names, as the row writes them. */
function splitNames(text: string): string[] {
  return text
    .split('›')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every name a test file gives its describes and tests, as patterns: a template literal's
 * `${…}` and a table test's `%s` / `$field` stand for any text, so a name built per case matches.
 */
function namePatterns(source: string): RegExp[] {
  const call = /\b(?:describe|it|test)(?:\.(?:each|for)\([\s\S]*?\))?\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*?)\1/g;
  return Array.from(source.matchAll(call), (match) => {
    const literal = (match[2] ?? '').replace(/\\(['"`\\])/g, '$1');
    const parts = literal.split(/\$\{[^}]*\}|%[sdifoj]|\$[a-zA-Z_]\w*/);
    return new RegExp(`^${parts.map(escapeRegExp).join('.+?')}$`, 's');
  });
}

/** The name, and the name without a note in parentheses at its end ("(one test per cell)"). */
function nameForms(name: string): string[] {
  const bare = name.replace(/\s*\([^()]*\)$/, '');
  return bare === name ? [name] : [name, bare];
}

/** A name kept in a table of cases (`name: 'REST (/rest/v1)'`) rather than written in the call. */
const quoted = (source: string, name: string) =>
  [`'${name}'`, `"${name}"`, `\`${name}\``].some((form) => source.includes(form));

/**
 * The support module of a test layer whose tests are generated there: tests/support/model/index.ts
 * for the model paths, tests/support/ui/index.ts for the UI paths (`<map> through the UI`).
 */
function supportOf(file: string): string[] {
  const layer = file.endsWith('.ui.test.ts') ? 'ui' : (file.split('/')[1] ?? '');
  const index = join(ROOT, 'tests', 'support', layer, 'index.ts');
  return existsSync(index) ? [index] : [];
}

describe('docs/reliability-and-security.md: the claims table', () => {
  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(100);
  });

  it('names a test for every claim', () => {
    const without = rows.filter((row) => referencesIn(row.tests).length === 0).map((row) => row.claim);
    expect(without).toEqual([]);
  });

  it('names files that exist and tests that are in them', () => {
    const missing: string[] = [];
    for (const row of rows) {
      for (const reference of referencesIn(row.tests)) {
        const path = join(ROOT, reference.file);
        if (!existsSync(path)) {
          missing.push(`${reference.file}: no such file (${row.claim})`);
          continue;
        }
        // A layer's shared support names the tests it generates (the model paths, for one).
        const source = [path, ...supportOf(reference.file)]
          .map((file) => readFileSync(file, 'utf8'))
          .join('\n');
        const patterns = namePatterns(source);
        for (const name of reference.names) {
          const found = nameForms(name).some(
            (form) => patterns.some((pattern) => pattern.test(form)) || quoted(source, form),
          );
          if (!found) missing.push(`${reference.file}: no "${name}" (${row.claim})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

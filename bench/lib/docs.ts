import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { format, resolveConfig } from 'prettier';

// docs/benchmarks.md is written by more than one script: each owns the text
// between its own `<!-- name:start -->` and `<!-- name:end -->` markers and
// leaves the rest of the file alone.

export function machineLine(now = new Date()): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? 'unknown CPU';
  const ram = (totalmem() / 1024 ** 3).toFixed(1);
  return `${model}, ${cores.length} cores, ${ram} GiB RAM, Node ${process.version}, ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Replaces (or appends) the section `name` of the markdown file at `path`, formatted as the repo formats markdown. */
export async function writeDocsSection(path: string, name: string, section: string): Promise<void> {
  const startMarker = `<!-- ${name}:start -->`;
  const endMarker = `<!-- ${name}:end -->`;
  const options = { ...(await resolveConfig(path)), parser: 'markdown' } as const;
  const body = (await format(section, options)).trimEnd();
  const block = `${startMarker}\n\n${body}\n\n${endMarker}`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(startMarker);
  const end = current.indexOf(endMarker);
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + block + current.slice(end + endMarker.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}

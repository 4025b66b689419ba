import type { JournalEntry, JournalExport } from '../journal-types.ts';

// Checks an imported file before it is replayed, so a wrong file gets a clear
// reason instead of a replay that fails half-way: not JSON, a journal file cut
// off before its end (an interrupted download or copy), not a journal (format,
// version, entry shape), or a truncated journal (the bounded journal dropped
// its oldest events, so the session cannot be rebuilt from it).

export type JournalProblem = 'notJson' | 'cutOff' | 'wrongFormat' | 'truncated';

export type ParsedJournal = { ok: true; recording: JournalExport } | { ok: false; problem: JournalProblem };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown): value is JournalEntry {
  return (
    isRecord(value) &&
    typeof value.seq === 'number' &&
    typeof value.at === 'number' &&
    typeof value.target === 'string' &&
    (value.source === null || typeof value.source === 'string') &&
    isRecord(value.event) &&
    typeof value.event.type === 'string'
  );
}

export function parseJournal(text: string): ParsedJournal {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const looksLikeJournal = text.trimStart().startsWith('{') && text.includes('"ddex-journal"');
    return { ok: false, problem: looksLikeJournal ? 'cutOff' : 'notJson' };
  }
  if (
    !isRecord(data) ||
    data.format !== 'ddex-journal' ||
    data.version !== 1 ||
    typeof data.startedAt !== 'string' ||
    typeof data.truncated !== 'boolean' ||
    !Array.isArray(data.entries) ||
    !data.entries.every(isEntry)
  ) {
    return { ok: false, problem: 'wrongFormat' };
  }
  const entries = data.entries as JournalEntry[];
  // A recording starts at seq 1 and has no gaps; anything else lost events on the way.
  const gapless = entries.every((entry, index) => entry.seq === index + 1);
  if (data.truncated || !gapless) return { ok: false, problem: 'truncated' };
  return { ok: true, recording: data as JournalExport };
}

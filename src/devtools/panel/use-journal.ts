import { useCallback, useSyncExternalStore } from 'react';
import type { Journal, JournalEntry } from '../journal-types.ts';

// The journal's entries, re-rendering on each new one. The journal may hand
// out the same (growing) array each time, so the store's snapshot is a key of
// its length and newest seq rather than the array itself.

export function useJournalEntries(journal: Journal): readonly JournalEntry[] {
  const subscribe = useCallback((onChange: () => void) => journal.subscribe(() => onChange()), [journal]);
  useSyncExternalStore(subscribe, () => {
    const entries = journal.entries();
    return `${entries.length}:${entries.at(-1)?.seq ?? 0}`;
  });
  return journal.entries();
}

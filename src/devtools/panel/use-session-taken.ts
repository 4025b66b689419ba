import { useEffect, useState } from 'react';
import type { Journal } from '../journal-types.ts';
import type { TakenByMachine } from '../session-transitions.ts';
import { useJournalEntries } from './use-journal.ts';

// What each machine has done in this session, for the diagram's overlay:
// the journal so far, replayed (session-transitions.ts, loaded on first use).
// Only while the overlay is on; again after new entries, once they pause for a
// moment, so a burst of events replays once.

export type SessionTaken = { taken: TakenByMachine | null; error: string | null };

const AFTER_ENTRIES_MS = 200;

export function useSessionTaken(journal: Journal, enabled: boolean): SessionTaken {
  const entries = useJournalEntries(journal);
  const version = `${entries.length}:${entries.at(-1)?.seq ?? 0}`;
  const [result, setResult] = useState<SessionTaken>({ taken: null, error: null });

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const { takenInJournal } = await import('../session-transitions.ts');
          const taken = takenInJournal(journal.export());
          if (current) setResult({ taken, error: null });
        } catch (error) {
          if (current)
            setResult({ taken: null, error: error instanceof Error ? error.message : String(error) });
        }
      })();
    }, AFTER_ENTRIES_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [journal, enabled, version]);

  return enabled ? result : { taken: null, error: null };
}

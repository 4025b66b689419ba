// The shape of the portal's event journal, shared by the journal (which
// records), replay (which rebuilds state from a recording) and the developer
// panel (which shows, exports and imports one).

/**
 * JSON-safe value: bigints are recorded as `{ $bigint: '123' }`, errors as `{ $error: { name, message, … } }`,
 * a machine as `{ $logic: 'trading' }`, redacted secrets as '[redacted]' (journal-value.ts lists every tag).
 */
export type JournalValue =
  string | number | boolean | null | JournalValue[] | { [key: string]: JournalValue };

export type JournalEntry = {
  /** Position in the recording, from 1. */
  seq: number;
  /** Milliseconds since the journal started (the system clock of the recording). */
  at: number;
  /** System id of the receiving actor (`portal`, `auth`, …), or `parent/id` (e.g. `auth/signIn`) when it has none. */
  target: string;
  /** The sender, named as `target` is; null when the event came from outside the actor system (a view). */
  source: string | null;
  /** The event, redacted: no password, private key or token ever reaches the journal. */
  event: { type: string; [key: string]: JournalValue };
};

export type JournalExport = {
  format: 'ddex-journal';
  version: 1;
  /** When the recording started (ISO time), for the reader. */
  startedAt: string;
  /** True when older entries were dropped because the journal is bounded. */
  truncated: boolean;
  entries: JournalEntry[];
};

export type Journal = {
  entries(): readonly JournalEntry[];
  /** Called with each new entry; returns the unsubscribe. */
  subscribe(listener: (entry: JournalEntry) => void): () => void;
  export(): JournalExport;
  clear(): void;
};

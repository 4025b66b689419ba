import type { PGlite } from '@electric-sql/pglite';

// Reads the change queue that the capture trigger fills, in commit order, one
// drain at a time, and hands each change to the listeners.

export type Change = {
  id: number;
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  record: Record<string, unknown> | null;
  oldRecord: Record<string, unknown> | null;
  commitTimestamp: string;
};

type ChangeRow = {
  id: number;
  schema_name: string;
  table_name: string;
  type: Change['type'];
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  commit_timestamp: string;
};

export type ChangeFeed = {
  onChange(listener: (change: Change) => Promise<void>): void;
  stop(): Promise<void>;
};

export async function startChangeFeed(pg: PGlite): Promise<ChangeFeed> {
  const listeners: ((change: Change) => Promise<void>)[] = [];
  // Changes queued before this start have no subscribers left to receive them.
  await pg.query('delete from _realtime.changes');
  let draining: Promise<void> = Promise.resolve();
  let stopped = false;

  const drainOnce = async () => {
    while (!stopped) {
      const { rows } = await pg.query<ChangeRow>(
        `select id, schema_name, table_name, type, record, old_record,
                to_json(commit_timestamp) #>> '{}' as commit_timestamp
           from _realtime.changes order by id limit 200`,
      );
      if (rows.length === 0) return;
      for (const row of rows) {
        const change: Change = {
          id: Number(row.id),
          schema: row.schema_name,
          table: row.table_name,
          type: row.type,
          record: row.record,
          oldRecord: row.old_record,
          commitTimestamp: row.commit_timestamp,
        };
        for (const listener of listeners) {
          // One failing delivery must not hold back the changes behind it.
          await listener(change).catch((error: unknown) => {
            console.error(`[realtime] delivering change ${change.id} failed:`, error);
          });
        }
      }
      const last = rows[rows.length - 1];
      await pg.query('delete from _realtime.changes where id <= $1', [last?.id]);
    }
  };

  const schedule = () => {
    draining = draining.then(drainOnce).catch((error: unknown) => {
      console.error('[realtime] change feed failed to drain:', error);
    });
  };

  const unlisten = await pg.listen('_realtime_changes', schedule);
  return {
    onChange: (listener) => listeners.push(listener),
    stop: async () => {
      stopped = true;
      await unlisten();
      await draining;
    },
  };
}

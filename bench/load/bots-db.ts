import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../src/domain/database.types.ts';
import type { BotFact, BotKind, NotificationFact, RunFact } from './bots-oracle.ts';

// What the server wrote in the bots phase, read with the service role at the end: the bots (for
// their rules and arming time), every run, and every notification of the phase's users. The
// phase's stack is its own, so every bot and run in it is the phase's.

type Service = SupabaseClient<Database>;

const PAGE = 500;
const USERS_PER_QUERY = 25;

/** Every row of a query, a page at a time, so no server-side row limit cuts the list short. */
async function allRows<T>(
  page: (from: number, to: number) => PromiseLike<{ data: T[] | null; error: unknown }>,
) {
  const rows: T[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await page(from, from + PAGE - 1);
    if (error) throw new Error(`reading the results failed: ${JSON.stringify(error)}`);
    rows.push(...(data ?? []));
    if ((data ?? []).length < PAGE) return rows;
  }
}

export async function readBots(service: Service): Promise<BotFact[]> {
  const rows = await allRows((from, to) =>
    service
      .from('bots')
      .select(
        'id, user_id, name, kind, level, move_pct, window_minutes, min_ddex, cooldown_minutes, armed_at',
      )
      .order('id')
      .range(from, to),
  );
  const text = (value: number | string | null) => (value === null ? null : String(value));
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    name: row.name,
    kind: row.kind as BotKind,
    level: text(row.level),
    movePct: text(row.move_pct),
    windowMinutes: row.window_minutes,
    minDdex: text(row.min_ddex),
    cooldownMinutes: row.cooldown_minutes,
    armedAtMs: Date.parse(row.armed_at),
  }));
}

export async function readRuns(service: Service): Promise<RunFact[]> {
  const rows = await allRows((from, to) =>
    service
      .from('bot_runs')
      .select('bot_id, tx_hash, log_index, notification_id')
      .order('id')
      .range(from, to),
  );
  return rows.map((row) => ({
    botId: row.bot_id,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    notificationId: row.notification_id,
  }));
}

export async function readNotifications(
  service: Service,
  userIds: readonly string[],
): Promise<NotificationFact[]> {
  const notes: NotificationFact[] = [];
  for (let at = 0; at < userIds.length; at += USERS_PER_QUERY) {
    const some = userIds.slice(at, at + USERS_PER_QUERY);
    const rows = await allRows((from, to) =>
      service
        .from('user_notifications')
        .select('id, user_id, title, message')
        .in('user_id', some)
        .order('id')
        .range(from, to),
    );
    notes.push(
      ...rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        title: row.title,
        message: row.message ?? '',
      })),
    );
  }
  return notes;
}

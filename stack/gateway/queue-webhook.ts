import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';

// Plays, on the local stack, the two callers a hosted project gives a function that drains a queue
// table (docs/deploy.md): the Database Webhook that calls it as soon as the queue gets a row, and
// the scheduled call that retries a failed row once it is due. It also drains once at start, for
// rows queued while the stack was stopped. The queue's row trigger (stack/sql/queue-webhooks.sql)
// notifies after each insert commits; drains of one queue run one at a time here, and a row
// queued during one starts another right after it. Two queues use it: wallet_watch_jobs
// (watch-wallets) and email_outbox (email-alerts).

export type QueueWebhook = { stop(): Promise<void> };

export type QueueWebhookOptions = {
  pg: PGlite;
  /** The function's name, for the log. */
  name: string;
  /** The channel the queue's trigger notifies (stack/sql/queue-webhooks.sql). */
  channel: string;
  /**
   * One row, `ms`: milliseconds until the queue's next row is due (a retry, or the end of a
   * claim's lease), negative when one is due now; null when nothing waits.
   */
  nextDueSql: string;
  /** One call of the function, as the webhook makes it; rejects when the call failed. */
  drain: () => Promise<void>;
};

const SQL = new URL('../sql/queue-webhooks.sql', import.meta.url);
/** The soonest a drain follows the last one by timer: a function that keeps failing is not called in a loop. */
const MIN_WAIT_MS = 1_000;
/** The latest: the hosted retry runs every minute. */
const MAX_WAIT_MS = 60_000;

/** The queues' triggers; run once on boot, before any queue's webhook starts. */
export async function installQueueTriggers(pg: PGlite): Promise<void> {
  await pg.exec(readFileSync(SQL, 'utf8'));
}

export async function startQueueWebhook(options: QueueWebhookOptions): Promise<QueueWebhook> {
  const { pg, name } = options;
  let stopped = false;
  let running: Promise<void> | null = null;
  let queuedMeanwhile = false;
  let timer: NodeJS.Timeout | null = null;

  const nextDueInMs = async (): Promise<number | null> => {
    const { rows } = await pg.query<{ ms: number | null }>(options.nextDueSql);
    return rows[0]?.ms ?? null;
  };

  const scheduleNext = async () => {
    const ms = await nextDueInMs();
    if (stopped || ms === null) return;
    timer = setTimeout(kick, Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, ms)));
  };

  const run = async () => {
    do {
      queuedMeanwhile = false;
      await options.drain().catch((error: unknown) => {
        console.error(`[${name}] the drain failed; it is called again when its rows are due:`, error);
      });
    } while (queuedMeanwhile && !stopped);
    await scheduleNext().catch((error: unknown) => {
      console.error(`[${name}] reading when the next row is due failed:`, error);
    });
  };

  function kick(): void {
    if (stopped) return;
    if (running) {
      queuedMeanwhile = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = run().finally(() => {
      running = null;
      if (queuedMeanwhile) kick();
    });
  }

  const unlisten = await pg.listen(options.channel, kick);
  kick();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await unlisten();
      await running;
    },
  };
}

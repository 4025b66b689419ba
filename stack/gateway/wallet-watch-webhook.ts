import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';

// Plays, on the local stack, the two callers a hosted project gives watch-wallets
// (docs/deploy.md#3-tatum): the Database Webhook that calls it as soon as the queue gets a row,
// and the scheduled call that retries a failed job once it is due. It also drains once at start,
// for jobs queued while the stack was stopped. The queue's row trigger
// (stack/sql/wallet-watch-webhook.sql) notifies after each insert commits; drains run one at a
// time here, and a row queued during one starts another right after it.

export type WalletWatchWebhook = { stop(): Promise<void> };

export type WalletWatchWebhookOptions = {
  pg: PGlite;
  /** One call of watch-wallets, as the webhook makes it; rejects when the call failed. */
  drain: () => Promise<void>;
};

const SQL = new URL('../sql/wallet-watch-webhook.sql', import.meta.url);
const CHANNEL = 'wallet_watch_jobs';
/** The soonest a drain follows the last one by timer: a function that keeps failing is not called in a loop. */
const MIN_WAIT_MS = 1_000;
/** The latest: the hosted retry runs every minute. */
const MAX_WAIT_MS = 60_000;

export async function startWalletWatchWebhook(
  options: WalletWatchWebhookOptions,
): Promise<WalletWatchWebhook> {
  const { pg } = options;
  await pg.exec(readFileSync(SQL, 'utf8'));
  let stopped = false;
  let running: Promise<void> | null = null;
  let queuedMeanwhile = false;
  let timer: NodeJS.Timeout | null = null;

  /** Milliseconds until a queued job is due (its retry, or the end of a claim's lease); null when none is queued. */
  const nextDueInMs = async (): Promise<number | null> => {
    const { rows } = await pg.query<{ ms: number | null }>(
      `select (extract(epoch from min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at)))
                 - now()) * 1000)::float8 as ms
         from public.wallet_watch_jobs`,
    );
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
        console.error('[watch-wallets] the drain failed; it is called again when its jobs are due:', error);
      });
    } while (queuedMeanwhile && !stopped);
    await scheduleNext().catch((error: unknown) => {
      console.error('[watch-wallets] reading when the next job is due failed:', error);
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

  const unlisten = await pg.listen(CHANNEL, kick);
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

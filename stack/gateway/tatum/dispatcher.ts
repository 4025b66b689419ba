import { logError } from '../../../supabase/functions/_shared/log.ts';
import { signPayload } from '../../../supabase/functions/_shared/signature.ts';
import type { Delivery, TatumStore } from './store.ts';

// Delivers owed webhooks: POSTs each body to its subscription's URL, signed
// with x-payload-hash, and retries a failed delivery with doubling back-off.
// A delivery is never dropped: it stays owed (and visible in
// _tatum.deliveries) until the receiver answers 2xx or its subscription is
// deleted, and every failure is logged.

export type Dispatcher = { wake(): void; stop(): Promise<void> };

export type DispatcherOptions = {
  store: TatumStore;
  webhookSecret: string;
  /** First retry delay; each further failure doubles it, up to maxRetryMs. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  timeoutMs?: number;
};

const BATCH = 20;

export function retryDelayMs(failedAttempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), maxMs);
}

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, webhookSecret } = options;
  const baseMs = options.retryBaseMs ?? 1000;
  const maxMs = options.maxRetryMs ?? 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  const deliver = async (delivery: Delivery) => {
    let status: number | null = null;
    let error: string;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payload-hash': await signPayload(webhookSecret, delivery.body),
        },
        body: delivery.body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      status = response.status;
      // The receiver's answer matters only as a status; read it so the connection is freed.
      const answer = (await response.text()).slice(0, 200);
      if (response.ok) {
        await store.delivered(delivery.id, status);
        if (delivery.attempts > 0) {
          console.warn(
            `[tatum] webhook ${delivery.id} delivered to ${delivery.url} on attempt ${delivery.attempts + 1}`,
          );
        }
        return;
      }
      error = `HTTP ${status}: ${answer}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const retryInMs = retryDelayMs(delivery.attempts + 1, baseMs, maxMs);
    await store.failed(delivery.id, { status, error, retryInMs });
    console.warn(
      `[tatum] webhook ${delivery.id} to ${delivery.url} failed (attempt ${delivery.attempts + 1}: ${error}); ` +
        `retrying in ${(retryInMs / 1000).toFixed(1)} s`,
    );
  };

  const drain = async () => {
    for (;;) {
      const due = await store.dueDeliveries(BATCH);
      if (due.length === 0 || stopped) return;
      for (const delivery of due) {
        if (stopped) return;
        await deliver(delivery);
      }
    }
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = drain()
      .catch((error: unknown) => logError('tatum', 'delivering webhooks failed', error))
      .then(async () => {
        running = null;
        if (again) {
          again = false;
          run();
          return;
        }
        const nextMs = await store.nextDueInMs().catch(() => baseMs);
        if (nextMs !== null && !stopped) timer = setTimeout(run, Math.max(nextMs, 10));
      });
  };
  run();

  return {
    wake: run,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTatumStore } from '../../stack/gateway/tatum/store.ts';

// When the emulator's dispatcher next has work: it sleeps until then, and not at all when
// nothing is owed. An answer of 0 for "nothing owed" made it ask again every 10 ms forever.

const SCHEMA = readFileSync(new URL('../../stack/sql/tatum.sql', import.meta.url), 'utf8');

let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(SCHEMA);
});
afterAll(async () => {
  await pg?.close();
});

async function owe(nextAttemptInSeconds: number): Promise<void> {
  const { rows } = await pg.query<{ id: string }>(
    `insert into _tatum.subscriptions (type, chain, address, url)
     values ('ADDRESS_EVENT', 'ethereum-sepolia', '0x' || md5(random()::text), 'http://127.0.0.1:1/hook')
     returning id`,
  );
  await pg.query(
    `insert into _tatum.deliveries (subscription_id, event_key, url, body, next_attempt_at)
     values ($1, 'event', 'http://127.0.0.1:1/hook', '{}', now() + make_interval(secs => $2))`,
    [rows[0]?.id, nextAttemptInSeconds],
  );
}

describe('the Tatum store: when the next webhook is due', () => {
  it('says nothing is owed when no delivery is waiting', async () => {
    expect(await createTatumStore(pg).nextDueInMs()).toBeNull();
  });

  it('says how long until the first owed delivery is due, and 0 once one is overdue', async () => {
    const store = createTatumStore(pg);
    await owe(30);
    const waiting = await store.nextDueInMs();
    expect(waiting).toBeGreaterThan(25_000);
    expect(waiting).toBeLessThanOrEqual(30_000);
    await owe(-5);
    expect(await store.nextDueInMs()).toBe(0);
  });
});

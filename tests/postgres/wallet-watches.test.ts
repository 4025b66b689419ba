import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Case, connectAs, inCase, SERVICE, userClaims, waitUntilBlocked } from '../support/postgres/sql.ts';

// The server's watches of proven wallets (migration 20261202000002) on a real PostgreSQL loaded
// like a hosted project: every change of a profile's proven wallet queues the addresses it touched,
// whoever made it (link-wallet as the service role, the owner unlinking, a Sign in with Ethereum
// as supabase_auth_admin, a deleted user); drains claim an address at a time, so two at once never
// work on one address; a failed job waits longer each time. The contract layer drives the same
// through the watch-wallets function on the local stack (tests/contract/watch-wallets.test.ts).
// Other files commit profiles with wallets on the same server, which queue jobs of their own, so
// each case reads and claims only the users and addresses it made.

type User = { id: string; email: string };
type Job = { address: string; user_id: string | null; attempts: number };
type Claim = { address: string; claim: string };

const URL_NOW = 'https://ref.supabase.co/functions/v1/process-payments?source=wallet';

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

const freshAddress = () => `0x${randomBytes(20).toString('hex')}`;
/** The address as a checksummed link writes it: its letters in upper case, here all of them. */
const shouted = (address: string) => `0x${address.slice(2).toUpperCase()}`;
const freshUser = (): User => {
  const id = randomUUID();
  return { id, email: `watch-${id.slice(0, 8)}@example.test` };
};

async function signUp(tx: Case, user: User, email: string | null = user.email): Promise<void> {
  await tx.query('set local role supabase_auth_admin');
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data,
       created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       '{}', '{}', now(), now())`,
    [user.id, email],
  );
  await tx.query('reset role');
}

/** The profile's wallet as link-wallet writes it (the service role), proven or not. */
async function setWallet(tx: Case, id: string, address: string | null, proven = true) {
  await tx.request(SERVICE, (query) =>
    query(
      `insert into public.profiles (id, wallet_address, wallet_verified_at)
       values ($1, $2, case when $3 then now() end)
       on conflict (id) do update set wallet_address = excluded.wallet_address,
         wallet_verified_at = excluded.wallet_verified_at`,
      [id, address, proven],
    ),
  );
}

/** The jobs queued for these users' profiles or these addresses. */
async function jobsOf(tx: Case, ...mine: string[]): Promise<Job[]> {
  const { rows } = await tx.query<Job>(
    `select address, user_id, attempts from public.wallet_watch_jobs
      where user_id::text = any($1) or address = any($1) order by id`,
    [mine],
  );
  return rows;
}

const forget = (tx: Case, user: User) =>
  tx.query('delete from public.wallet_watch_jobs where user_id = $1', [user.id]);

/** A claim as a drain makes it, and what it took of these addresses. */
const claim = (tx: Case, mine: string[], leaseSeconds = 60) =>
  tx.request(SERVICE, async (query) => {
    const { rows } = await query<Claim>('select * from public.claim_wallet_watches($1, $2, $3)', [
      URL_NOW,
      100,
      leaseSeconds,
    ]);
    return rows.filter((row) => mine.includes(row.address));
  });

const finish = (tx: Case, taken: Claim, error: string | null = null) =>
  tx.request(SERVICE, (query) =>
    query('select public.finish_wallet_watch($1, $2, $3)', [taken.address, taken.claim, error]),
  );

describe('the queue of proven-wallet changes', () => {
  it('gets the address, in lower case, when a wallet becomes proven, and nothing for an unproven one', async () => {
    const queued = await inCase(db, async (tx) => {
      const [proven, unproven] = [freshUser(), freshUser()];
      const address = freshAddress();
      await signUp(tx, proven);
      await signUp(tx, unproven);
      await setWallet(tx, proven.id, shouted(address));
      await setWallet(tx, unproven.id, freshAddress(), false);
      return { address, user: proven.id, jobs: await jobsOf(tx, proven.id, unproven.id) };
    });
    expect(queued.jobs).toEqual([{ address: queued.address, user_id: queued.user, attempts: 0 }]);
  });

  it('gets nothing when the proven address stays (another letter case, a new proof, a profile edit)', async () => {
    const queued = await inCase(db, async (tx) => {
      const user = freshUser();
      const address = freshAddress();
      await signUp(tx, user);
      await setWallet(tx, user.id, address);
      await forget(tx, user);
      await setWallet(tx, user.id, shouted(address));
      await tx.request(userClaims(user), (query) =>
        query(`update public.profiles set username = 'renamed' where id = $1`, [user.id]),
      );
      return jobsOf(tx, user.id);
    });
    expect(queued).toEqual([]);
  });

  it('gets both addresses of a relink, the old one on an unlink by the owner, and the old one when the user goes', async () => {
    const queued = await inCase(db, async (tx) => {
      const user = freshUser();
      const [first, second] = [freshAddress(), freshAddress()];
      await signUp(tx, user);
      await setWallet(tx, user.id, first);
      await forget(tx, user);
      await setWallet(tx, user.id, second);
      const relinked = await jobsOf(tx, user.id);
      await forget(tx, user);
      await tx.request(userClaims(user), (query) =>
        query(
          `insert into public.profiles (id, wallet_address) values ($1, null)
           on conflict (id) do update set id = excluded.id, wallet_address = excluded.wallet_address`,
          [user.id],
        ),
      );
      const unlinked = await jobsOf(tx, user.id);
      await setWallet(tx, user.id, first);
      await forget(tx, user);
      await tx.query('set local role supabase_auth_admin');
      await tx.query('delete from auth.users where id = $1', [user.id]);
      await tx.query('reset role');
      return { user: user.id, first, second, relinked, unlinked, deleted: await jobsOf(tx, user.id) };
    });
    const job = (address: string) => ({ address, user_id: queued.user, attempts: 0 });
    expect(queued.relinked).toEqual([job(queued.first), job(queued.second)]);
    expect(queued.unlinked).toEqual([job(queued.second)]);
    expect(queued.deleted).toEqual([job(queued.first)]);
  });

  it('gets the address of a Sign in with Ethereum, written as supabase_auth_admin', async () => {
    const queued = await inCase(db, async (tx) => {
      const user = freshUser();
      const address = freshAddress();
      await signUp(tx, user, null);
      await tx.query('set local role supabase_auth_admin');
      await tx.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider)
         values ($1, $2, '{}', 'web3')`,
        [`web3:ethereum:${shouted(address)}`, user.id],
      );
      await tx.query('reset role');
      return { address, user: user.id, jobs: await jobsOf(tx, user.id) };
    });
    expect(queued.jobs).toEqual([{ address: queued.address, user_id: queued.user, attempts: 0 }]);
  });
});

describe('the trigger that queues them', () => {
  it('runs as a security definer function of postgres that no API role may call', async () => {
    const { rows } = await db.query(
      `select pg_get_userbyid(p.proowner) as owner, p.prosecdef as security_definer,
              p.proconfig as config,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated
         from pg_proc p where p.oid = 'public.queue_wallet_watch()'::regprocedure`,
    );
    expect(rows).toEqual([
      {
        owner: 'postgres',
        security_definer: true,
        config: ['search_path=""'],
        anon: false,
        authenticated: false,
      },
    ]);
  });
});

describe('draining the queue', () => {
  it('claims each due address once, with all of its jobs, until the claim is finished', async () => {
    const outcome = await inCase(db, async (tx) => {
      const [a, b] = [freshAddress(), freshAddress()];
      await tx.query('insert into public.wallet_watch_jobs (address) values ($1), ($1), ($2)', [a, b]);
      const first = await claim(tx, [a, b]);
      // A change that arrives while the address is being reconciled waits for the next claim.
      await tx.query('insert into public.wallet_watch_jobs (address) values ($1)', [a]);
      const whileHeld = await claim(tx, [a, b]);
      const taken = first.find((row) => row.address === a);
      if (!taken) throw new Error('the first claim did not take the address');
      await finish(tx, taken);
      return { a, b, first, whileHeld, left: await jobsOf(tx, a, b), again: await claim(tx, [a, b]) };
    });
    expect(outcome.first.map((row) => row.address).sort()).toEqual([outcome.a, outcome.b].sort());
    expect(new Set(outcome.first.map((row) => row.claim)).size).toBe(1);
    expect(outcome.whileHeld).toEqual([]);
    expect(outcome.left.map((job) => job.address).sort()).toEqual([outcome.a, outcome.b].sort());
    expect(outcome.again.map((row) => row.address)).toEqual([outcome.a]);
  });

  it('keeps a failed job, with its error, for a retry that waits twice as long each time', async () => {
    const outcome = await inCase(db, async (tx) => {
      const address = freshAddress();
      await tx.query('insert into public.wallet_watch_jobs (address) values ($1)', [address]);
      const waits: string[] = [];
      for (let failure = 0; failure < 3; failure++) {
        const [taken] = await claim(tx, [address]);
        if (!taken) throw new Error(`nothing to claim before failure ${failure + 1}`);
        await finish(tx, taken, `Tatum unreachable (${failure + 1})`);
        const { rows } = await tx.query<{ wait: string }>(
          `select (next_attempt_at - now())::text as wait from public.wallet_watch_jobs where address = $1`,
          [address],
        );
        waits.push(rows[0]?.wait ?? 'gone');
        // The retry is due only later: make it due now, as time passing would.
        await tx.query('update public.wallet_watch_jobs set next_attempt_at = now() where address = $1', [
          address,
        ]);
      }
      const { rows } = await tx.query(
        'select attempts, last_error, claimed_by from public.wallet_watch_jobs where address = $1',
        [address],
      );
      return { waits, job: rows[0] };
    });
    expect(outcome.waits).toEqual(['00:00:01', '00:00:02', '00:00:04']);
    expect(outcome.job).toEqual({ attempts: 3, last_error: 'Tatum unreachable (3)', claimed_by: null });
  });

  it('does not claim a failed job before its retry is due', async () => {
    const claimed = await inCase(db, async (tx) => {
      const address = freshAddress();
      await tx.query('insert into public.wallet_watch_jobs (address) values ($1)', [address]);
      const [taken] = await claim(tx, [address]);
      if (!taken) throw new Error('nothing to claim');
      await finish(tx, taken, 'Tatum refused (plan.limit)');
      return claim(tx, [address]);
    });
    expect(claimed).toEqual([]);
  });

  it('claims an address again once the lease of a drain that stopped has run out', async () => {
    const outcome = await inCase(db, async (tx) => {
      const address = freshAddress();
      await tx.query('insert into public.wallet_watch_jobs (address) values ($1)', [address]);
      const [lost] = await claim(tx, [address], 0);
      // now() is the transaction's start: a lease of 0 s has run out for any later claim.
      const again = await claim(tx, [address]);
      return { lost, again };
    });
    expect(outcome.again.map((row) => row.address)).toEqual([outcome.lost?.address]);
    expect(outcome.again[0]?.claim).not.toBe(outcome.lost?.claim);
  });

  it('queues a watch made for another URL, so the drain moves it to this one', async () => {
    const outcome = await inCase(db, async (tx) => {
      const [moved, kept] = [freshAddress(), freshAddress()];
      const owner = randomUUID();
      await tx.query(
        `insert into public.wallet_watches (address, user_id, url, subscription_id, state)
         values ($1, $3, 'http://127.0.0.1:54321/functions/v1/process-payments?source=wallet', 'sub-a', 'active'),
                ($2, $3, $4, 'sub-b', 'active')`,
        [moved, kept, owner, URL_NOW],
      );
      return { moved, claimed: await claim(tx, [moved, kept]) };
    });
    expect(outcome.claimed.map((row) => row.address)).toEqual([outcome.moved]);
  });

  it('forgets a watch once the function has ended it at Tatum', async () => {
    const outcome = await inCase(db, async (tx) => {
      const address = freshAddress();
      await tx.query(
        `insert into public.wallet_watches (address, user_id, url, subscription_id, state)
         values ($1, $2, $3, 'sub-c', 'active')`,
        [address, randomUUID(), URL_NOW],
      );
      const forgotten = await tx.request(SERVICE, (query) =>
        query<{ forgotten: boolean }>('select public.forget_wallet_watch($1) as forgotten', [address]),
      );
      const again = await tx.request(SERVICE, (query) =>
        query<{ forgotten: boolean }>('select public.forget_wallet_watch($1) as forgotten', [address]),
      );
      const { rows } = await tx.query('select 1 from public.wallet_watches where address = $1', [address]);
      return [forgotten.rows[0]?.forgotten, again.rows[0]?.forgotten, rows.length];
    });
    expect(outcome).toEqual([true, false, 0]);
  });

  it('gives two drains claiming at once different addresses, never one address to both', async () => {
    // Committed, so that two sessions see them; other files' committed jobs may be claimed too.
    const addresses = [freshAddress(), freshAddress(), freshAddress(), freshAddress()];
    await db.query('insert into public.wallet_watch_jobs (address) select unnest($1::text[])', [addresses]);
    const [first, second] = [await connectAs(), await connectAs()];
    const claimOn = async (client: pg.Client, limit: number) => {
      await client.query('begin');
      await client.query('set local role service_role');
      return client.query<Claim>('select * from public.claim_wallet_watches($1, $2, 60)', [URL_NOW, limit]);
    };
    try {
      const { rows: pids } = await second.query<{ pid: number }>('select pg_backend_pid() as pid');
      const firstTaken = await claimOn(first, 2);
      const secondTaking = claimOn(second, 10);
      // The second claim waits for the first to commit, then sees what it leased.
      await waitUntilBlocked(db, pids[0]?.pid ?? 0, 'the second claim waits for the first');
      await first.query('commit');
      const secondTaken = await secondTaking;
      await second.query('commit');
      const a = firstTaken.rows.map((row) => row.address);
      const b = secondTaken.rows.map((row) => row.address);
      expect(a).toHaveLength(2);
      expect(b.filter((address) => a.includes(address))).toEqual([]);
      expect([...a, ...b].filter((address) => addresses.includes(address)).sort()).toEqual(
        [...addresses].sort(),
      );
    } finally {
      await first.query('rollback').catch(() => undefined);
      await second.query('rollback').catch(() => undefined);
      await db.query('delete from public.wallet_watch_jobs where address = any($1)', [addresses]);
      await first.end();
      await second.end();
    }
  });
});

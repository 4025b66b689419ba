import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Case, connectAs, inCase, SERVICE, userClaims, waitUntilBlocked } from '../support/postgres/sql.ts';

// Wallet ownership (migration 20261124000001) on a real PostgreSQL loaded like a hosted project:
// the profiles guard keeps the wallet and its proof server-owned but lets the owner unlink it, and
// a Sign in with Ethereum links the wallet as Supabase Auth writes the identity, as
// supabase_auth_admin, without ever failing the sign-in. The contract layer proves the same through
// supabase-js on the local stack (tests/contract/link-wallet.test.ts, web3-sign-in.test.ts).

type User = { id: string; email: string };

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

const freshAddress = () => `0x${randomBytes(20).toString('hex')}`;
const freshUser = (): User => {
  const id = randomUUID();
  return { id, email: `wallet-${id.slice(0, 8)}@example.test` };
};

/** Writes the account as Auth does, as supabase_auth_admin (a user with no email for web3). */
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

/** A Sign in with Ethereum as Auth records it: the identity inserted on the first, updated after. */
async function signInWithEthereum(tx: Case, user: User, address: string): Promise<void> {
  const providerId = `web3:ethereum:${address}`;
  await tx.query('set local role supabase_auth_admin');
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
       created_at, updated_at)
     values ($1, $2, jsonb_build_object('sub', $1::text), 'web3', now(), now(), now())
     on conflict (provider_id, provider) do update
       set identity_data = excluded.identity_data, last_sign_in_at = excluded.last_sign_in_at`,
    [providerId, user.id],
  );
  await tx.query('reset role');
}

async function walletOf(tx: Case, id: string) {
  const { rows } = await tx.query<{ wallet_address: string | null; verified: boolean }>(
    `select wallet_address, wallet_verified_at is not null as verified from public.profiles where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

async function setWallet(tx: Case, id: string, address: string) {
  await tx.request(SERVICE, (query) =>
    query(
      `insert into public.profiles (id, wallet_address, wallet_verified_at) values ($1, $2, now())
       on conflict (id) do update set wallet_address = excluded.wallet_address,
         wallet_verified_at = excluded.wallet_verified_at`,
      [id, address],
    ),
  );
}

describe('the wallet on a profile', () => {
  it('cannot be set or vouched for by its owner, with an update or an upsert (42501)', async () => {
    const errors = await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx, owner);
      await setWallet(tx, owner.id, freshAddress());
      const attempts = [
        ['update public.profiles set wallet_address = $2 where id = $1', [owner.id, freshAddress()]],
        [
          'update public.profiles set wallet_verified_at = now() - $2::interval where id = $1',
          [owner.id, '1 day'],
        ],
        [
          `insert into public.profiles (id, wallet_address) values ($1, $2)
           on conflict (id) do update set wallet_address = excluded.wallet_address`,
          [owner.id, freshAddress()],
        ],
      ] as const;
      const refusals = [];
      for (const [sql, params] of attempts) {
        const answer = await tx.attempt(async () => {
          await tx.request(userClaims(owner), (query) => query(sql, [...params]));
          return { error: null, rows: 0 };
        });
        refusals.push(answer.error);
      }
      return refusals;
    });
    expect(errors).toEqual([
      {
        code: '42501',
        message: 'profiles.wallet_address is managed by the server and cannot be changed by the client',
      },
      {
        code: '42501',
        message: 'profiles.wallet_verified_at is managed by the server and cannot be changed by the client',
      },
      {
        code: '42501',
        message: 'profiles.wallet_address is managed by the server and cannot be changed by the client',
      },
    ]);
  });

  it('can be unlinked by its owner with an upsert, which clears its proof', async () => {
    const after = await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx, owner);
      await setWallet(tx, owner.id, freshAddress());
      await tx.request(userClaims(owner), (query) =>
        query(
          `insert into public.profiles (id, wallet_address) values ($1, null)
           on conflict (id) do update set id = excluded.id, wallet_address = excluded.wallet_address`,
          [owner.id],
        ),
      );
      return walletOf(tx, owner.id);
    });
    expect(after).toEqual({ wallet_address: null, verified: false });
  });

  it('is held by one profile at most, whatever the letter case', async () => {
    const answer = await inCase(db, async (tx) => {
      const [first, second] = [freshUser(), freshUser()];
      await signUp(tx, first);
      await signUp(tx, second);
      const address = freshAddress();
      await setWallet(tx, first.id, address);
      return tx.attempt(async () => {
        await setWallet(tx, second.id, address.toUpperCase().replace('0X', '0x'));
        return { error: null, rows: 0 };
      });
    });
    expect(answer.error?.code).toBe('23505');
  });
});

describe('a Sign in with Ethereum', () => {
  it('links the signed address to the user’s profile, verified, and again on a later sign-in', async () => {
    const states = await inCase(db, async (tx) => {
      const user = freshUser();
      const address = freshAddress();
      await signUp(tx, user, null);
      await signInWithEthereum(tx, user, address);
      const first = await walletOf(tx, user.id);
      await tx.request(userClaims(user), (query) =>
        query('update public.profiles set wallet_address = null where id = $1', [user.id]),
      );
      const unlinked = await walletOf(tx, user.id);
      await signInWithEthereum(tx, user, address);
      return { address, first, unlinked, again: await walletOf(tx, user.id) };
    });
    expect(states).toEqual({
      address: states.address,
      first: { wallet_address: states.address, verified: true },
      unlinked: { wallet_address: null, verified: false },
      again: { wallet_address: states.address, verified: true },
    });
  });

  it('links nothing when another profile holds the address, and the sign-in goes through', async () => {
    const outcome = await inCase(db, async (tx) => {
      const [holder, newcomer] = [freshUser(), freshUser()];
      const address = freshAddress();
      await signUp(tx, holder);
      await setWallet(tx, holder.id, address.toUpperCase().replace('0X', '0x'));
      await signUp(tx, newcomer, null);
      await signInWithEthereum(tx, newcomer, address);
      return { holder: await walletOf(tx, holder.id), newcomer: await walletOf(tx, newcomer.id) };
    });
    expect(outcome.holder).toMatchObject({ verified: true });
    expect(outcome.newcomer).toBeNull();
  });

  it('links nothing for another chain’s or another provider’s identity', async () => {
    const profile = await inCase(db, async (tx) => {
      const user = freshUser();
      await signUp(tx, user, null);
      await tx.query('set local role supabase_auth_admin');
      await tx.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider)
         values ($1, $2, '{}', 'web3'), ($3, $2, '{}', 'github')`,
        [`web3:solana:${randomBytes(16).toString('hex')}`, user.id, `web3:ethereum:${freshAddress()}`],
      );
      await tx.query('reset role');
      return walletOf(tx, user.id);
    });
    expect(profile).toBeNull();
  });

  it('never fails when a concurrent sign-in or link claims the same address first', async () => {
    // Two sessions: one links the address and has not committed yet, the other's sign-in finds no
    // holder, waits on the unique index, and meets the committed claim. The sign-in commits.
    const claimer = await connectAs();
    const signer = await connectAs();
    const [holder, newcomer] = [freshUser(), freshUser()];
    const address = freshAddress();
    try {
      for (const [client, user] of [
        [claimer, holder],
        [signer, newcomer],
      ] as const) {
        await client.query('begin');
        await signUp(new Case(client), user, null);
        await client.query('commit');
      }
      const { rows: pids } = await signer.query<{ pid: number }>('select pg_backend_pid() as pid');
      await claimer.query('begin');
      await setWallet(new Case(claimer), holder.id, address);
      await signer.query('begin');
      const signIn = signInWithEthereum(new Case(signer), newcomer, address).then(() =>
        signer.query('commit'),
      );
      // The sign-in's insert waits for the claimer's transaction before it can settle.
      await waitUntilBlocked(db, pids[0]?.pid ?? 0, 'the sign-in waits for the other claim');
      await claimer.query('commit');
      await expect(signIn).resolves.toBeDefined();
      const { rows } = await db.query<{ id: string }>(
        'select id from public.profiles where lower(wallet_address) = lower($1)',
        [address],
      );
      expect(rows).toEqual([{ id: holder.id }]);
      const identity = await db.query('select 1 from auth.identities where user_id = $1', [newcomer.id]);
      expect(identity.rowCount).toBe(1);
    } finally {
      await claimer.query('rollback').catch(() => undefined);
      await signer.query('rollback').catch(() => undefined);
      await db.query('delete from auth.users where id = any($1)', [[holder.id, newcomer.id]]);
      await claimer.end();
      await signer.end();
    }
  });
});

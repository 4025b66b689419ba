import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database, Json } from '../../src/domain/database.types.ts';
import { CLIENT_PROFILE_FIELDS } from '../../src/services/supabase/profile-fields.ts';
import { anonClient, serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';
import {
  createProbes,
  type Probe,
  type Probes,
  type Session,
  type Target,
} from '../support/policy-matrix.ts';
import { CELLS, ROWS, rowsOf, verdictOf, type Actor } from '../support/policy-table.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';

// The policy matrix (tests/support/policy-table.ts) on the local stack: every
// cell's call goes through supabase-js to the gateway, and is judged by what
// the table expects of lite. The same table runs at the SQL level on a real
// PostgreSQL in tests/postgres/policy-matrix.test.ts.

const stack = inject('gateway');
const service = serviceClient(stack);

type ProfileRow = Database['public']['Tables']['profiles']['Row'];
type ProfileInsert = Database['public']['Tables']['profiles']['Insert'];
type ProfileUpdate = Database['public']['Tables']['profiles']['Update'];

let owner: TestUser;
let other: TestUser;
let probes: Probes;

async function withProfile(label: string): Promise<TestUser> {
  const user = await signedInUser(stack, label);
  const { error } = await user.client.from('profiles').upsert({ id: user.id, username: label });
  if (error) throw new Error(`creating ${label}'s profile failed: ${error.message}`);
  return user;
}

async function profileRow(id: string): Promise<ProfileRow> {
  const { data, error } = await service.from('profiles').select('*').eq('id', id).single();
  if (error) throw new Error(`reading profile ${id} failed: ${error.message}`);
  return data;
}

beforeAll(async () => {
  [owner, other] = await Promise.all([withProfile('matrix-owner'), withProfile('matrix-other')]);
  probes = createProbes(stack, { owner, other });
});

function sessionOf(actor: Actor, target: Target): Session {
  if (actor === 'owner') return { client: target.owner.client, accessToken: target.owner.accessToken };
  if (actor === 'other user') return { client: other.client, accessToken: other.accessToken };
  return { client: anonClient(stack), accessToken: null };
}

describe('policy matrix', () => {
  it('has one row for every resource and verb', () => {
    expect(ROWS).toEqual(rowsOf(createProbes(stack, { owner, other })));
  });

  it.each(CELLS)('%s · %s · as %s: %s', async (resource, verb, actor, outcome) => {
    const probe = (probes as Record<string, Record<string, Probe>>)[resource]?.[verb];
    if (!probe) throw new Error(`no probe for ${resource} · ${verb}`);
    const target = await probe.arrange();
    const before = await probe.read(target);
    const answer = await probe.act(sessionOf(actor, target), target);
    const after = await probe.read(target);

    const verdict = verdictOf(outcome, 'lite');
    switch (verdict) {
      case 'allowed':
        expect(answer.error).toBeNull();
        expect(probe.applied(target, after, answer)).toBe(true);
        break;
      case 'refused':
        expect(answer.error).not.toBeNull();
        expect([401, 403]).toContain(answer.error?.status);
        expect(after).toEqual(before);
        break;
      case 'invisible':
        expect(answer.error).toBeNull();
        expect(answer.rows).toBe(0);
        expect(after).toEqual(before);
        break;
      default:
        throw new Error(`lite has no cell that comes to '${verdict}'`);
    }
  });
});

/** A wallet no one holds yet (a wallet has one owner), the same for every call. */
const WALLET = `0x${randomBytes(20).toString('hex')}`;

// The fields the profiles guard trigger refuses to take from a client
// (migrations 20261121000001, ..07 and 20261124000001), each with a value a client might try.
const SERVER_OWNED: [field: keyof ProfileRow, value: () => Json][] = [
  ['role', () => 'admin'],
  ['kyc_status', () => 'verified'],
  ['account_tier', () => 'pro'],
  ['api_key_count', () => 5],
  ['two_factor_enabled', () => true],
  ['hcaptcha_sim_verified', () => true],
  ['last_login_ip', () => '203.0.113.7'],
  ['last_dex_activity', () => '2026-01-02T03:04:05.000Z'],
  ['referral_code', () => 'FRIEND-42'],
  ['referred_by_user_id', () => other.id],
  ['wallet_address', () => WALLET],
  ['wallet_verified_at', () => '2026-01-02T03:04:05.000Z'],
];

/**
 * The fields the owner saves. The portal's save may carry the wallet back as it read it (no
 * change) or as null, which unlinks it (tests/contract/link-wallet.test.ts); any other value is
 * refused, as for every server-owned field.
 */
const CLIENT_OWNED = (CLIENT_PROFILE_FIELDS as readonly string[]).filter(
  (field) => field !== 'wallet_address',
);

/** Set by the server alone: a client's value is ignored rather than refused. */
const SERVER_SET = ['created_at', 'updated_at'];

const TIMESTAMPS: (keyof ProfileRow)[] = ['last_dex_activity', 'wallet_verified_at'];
const comparable = (field: keyof ProfileRow, value: unknown) =>
  TIMESTAMPS.includes(field) && typeof value === 'string' ? new Date(value).toISOString() : value;

describe('server-owned profile fields', () => {
  let holder: TestUser;
  let promoted: TestUser;

  beforeAll(async () => {
    [holder, promoted] = await Promise.all([withProfile('fields-holder'), withProfile('fields-promoted')]);
    // A proof stands only beside an address: the server's change of one needs the other there.
    await setWalletAsServer(service, promoted.id, `0x${randomBytes(20).toString('hex')}`, false);
  });

  it('splits every profile column into client-owned, server-owned and server-set', async () => {
    const columns = Object.keys(await profileRow(holder.id)).sort();
    const split = [...CLIENT_OWNED, ...SERVER_OWNED.map(([field]) => field), ...SERVER_SET];
    expect(new Set(split).size).toBe(split.length);
    expect([...split].sort()).toEqual(columns);
  });

  it.each(SERVER_OWNED)('the owner cannot change profiles.%s', async (field, value) => {
    const before = await profileRow(holder.id);
    expect(comparable(field, before[field])).not.toEqual(comparable(field, value()));
    const refusal = {
      code: '42501',
      message: `profiles.${field} is managed by the server and cannot be changed by the client`,
    };

    const update = await holder.client
      .from('profiles')
      .update({ [field]: value() } as ProfileUpdate)
      .eq('id', holder.id)
      .select();
    expect(update.error).toMatchObject(refusal);
    const upsert = await holder.client
      .from('profiles')
      .upsert({ id: holder.id, [field]: value() } as ProfileInsert, { onConflict: 'id' })
      .select();
    expect(upsert.error).toMatchObject(refusal);

    expect(await profileRow(holder.id)).toEqual(before);
  });

  it.each(SERVER_OWNED)('the service role can change profiles.%s', async (field, value) => {
    const { error } = await service
      .from('profiles')
      .update({ [field]: value() } as ProfileUpdate)
      .eq('id', promoted.id);
    expect(error).toBeNull();
    const after = await profileRow(promoted.id);
    expect(comparable(field, after[field])).toEqual(comparable(field, value()));
  });

  it('the owner cannot back-date profiles.created_at: the first value stays', async () => {
    const before = await profileRow(holder.id);
    const { error } = await holder.client
      .from('profiles')
      .upsert({ id: holder.id, created_at: '2000-01-01T00:00:00Z' }, { onConflict: 'id' });
    expect(error).toBeNull();
    expect((await profileRow(holder.id)).created_at).toBe(before.created_at);
  });

  it('the owner cannot set profiles.updated_at: the server stamps the save', async () => {
    const before = await profileRow(holder.id);
    const { error } = await holder.client
      .from('profiles')
      .update({ updated_at: '2000-01-01T00:00:00Z' })
      .eq('id', holder.id);
    expect(error).toBeNull();
    const after = await profileRow(holder.id);
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
  });

  it('the owner can change every client-owned field', async () => {
    const edits = {
      email: 'edited@example.com',
      mc_wallet_address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      username: 'edited-holder',
      full_name: 'Edited Holder',
      website: 'https://example.com/holder',
      avatar_url: `${stack.url}/storage/v1/object/public/avatars/${holder.id}-1.png`,
      theme_preference: 'light',
      preferred_language: 'de',
      notification_preferences: { email: false },
    } satisfies Omit<ProfileUpdate, 'id'>;
    expect(Object.keys(edits).sort()).toEqual(CLIENT_OWNED.filter((f) => f !== 'id').sort());

    const { error } = await holder.client
      .from('profiles')
      .upsert({ id: holder.id, ...edits }, { onConflict: 'id' });
    expect(error).toBeNull();
    expect(await profileRow(holder.id)).toMatchObject(edits);
  });
});

import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, signedInUser } from '../support/stack/users.ts';

// The profiles table and its calls (docs/product.md#tables, #calls): select single (PGRST116 when
// there is no row yet), upsert on conflict id returning the row.
const stack = inject('gateway');

// The profile defaults (docs/product.md#tables).
const SPEC_DEFAULTS = {
  role: 'user',
  account_tier: 'basic',
  kyc_status: 'pending',
  preferred_language: 'en',
  theme_preference: 'dark',
  two_factor_enabled: false,
  hcaptcha_sim_verified: false,
  api_key_count: 0,
  notification_preferences: {},
};

const SPEC_FIELDS = [
  'id', 'email', 'wallet_address', 'mc_wallet_address', 'updated_at', 'created_at', 'username', 'role',
  'avatar_url', 'full_name', 'website', 'theme_preference', 'hcaptcha_sim_verified', 'last_dex_activity',
  'two_factor_enabled', 'last_login_ip', 'kyc_status', 'account_tier', 'preferred_language',
  'notification_preferences', 'api_key_count', 'referral_code', 'referred_by_user_id',
  'wallet_verified_at',
]; // prettier-ignore

describe('profiles', () => {
  it('answers PGRST116 for a user without a profile row', async () => {
    const user = await signedInUser(stack, 'noprofile');
    const { data, error } = await user.client.from('profiles').select('*').eq('id', user.id).single();
    expect(data).toBeNull();
    expect(error?.code).toBe('PGRST116');
  });

  it('upserts a new profile and returns the row with every spec field and default', async () => {
    const user = await signedInUser(stack, 'create');
    const { data, error } = await user.client
      .from('profiles')
      .upsert({ id: user.id, email: user.email, username: 'create-user' }, { onConflict: 'id' })
      .select()
      .single();
    expect(error).toBeNull();
    expect(Object.keys(data ?? {}).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(data).toMatchObject({ ...SPEC_DEFAULTS, id: user.id, email: user.email, username: 'create-user' });
    // No wallet until one is proven (link-wallet, or a sign-in with Ethereum).
    expect(data).toMatchObject({ wallet_address: null, wallet_verified_at: null });
    expect(data?.created_at).toEqual(expect.any(String));

    const again = await user.client.from('profiles').select('*').eq('id', user.id).single();
    expect(again.data).toEqual(data);
  });

  it('keeps created_at on later upserts and saves the editable fields', async () => {
    const user = await signedInUser(stack, 'edit');
    const first = await user.client.from('profiles').upsert({ id: user.id }).select().single();
    const edits = {
      username: 'edited',
      full_name: 'Edited Person',
      website: 'https://example.com/me',
      avatar_url: `${stack.url}/storage/v1/object/public/avatars/${user.id}-1.png`,
      created_at: '2000-01-01T00:00:00Z',
    };
    const second = await user.client
      .from('profiles')
      .upsert({ ...first.data, id: user.id, ...edits })
      .select()
      .single();
    expect(second.error).toBeNull();
    const { created_at: _ignored, ...saved } = edits;
    expect(second.data).toMatchObject(saved);
    expect(second.data?.created_at).toBe(first.data?.created_at);
  });

  it('refuses a client change to a server-owned field and leaves the row as it was', async () => {
    const user = await signedInUser(stack, 'escalate');
    const created = await user.client.from('profiles').upsert({ id: user.id }).select().single();
    const attempts = [
      { role: 'admin' },
      { kyc_status: 'verified' },
      { account_tier: 'pro' },
      { api_key_count: 5 },
      { two_factor_enabled: true },
      // The wallet is proven through link-wallet, never typed in (tests/contract/link-wallet.test.ts).
      { wallet_address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' },
      { wallet_verified_at: '2026-01-01T00:00:00Z' },
    ];
    for (const attempt of attempts) {
      const { error } = await user.client
        .from('profiles')
        .upsert({ id: user.id, ...attempt })
        .select()
        .single();
      expect(error?.code).toBe('42501');
      expect(error?.message).toContain(`profiles.${Object.keys(attempt)[0]} is managed by the server`);
      const update = await user.client.from('profiles').update(attempt).eq('id', user.id).select();
      expect(update.error?.code).toBe('42501');
    }
    const after = await serviceClient(stack).from('profiles').select('*').eq('id', user.id).single();
    expect(after.data).toEqual(created.data);
  });

  it('refuses to create a profile that starts with server-owned values', async () => {
    const user = await signedInUser(stack, 'born-admin');
    const { error } = await user.client.from('profiles').insert({ id: user.id, role: 'admin' });
    expect(error?.code).toBe('42501');
    const row = await serviceClient(stack).from('profiles').select('*').eq('id', user.id).maybeSingle();
    expect(row.data).toBeNull();
  });

  it('lets the service role set server-owned fields', async () => {
    const user = await signedInUser(stack, 'promoted');
    await user.client.from('profiles').upsert({ id: user.id });
    const { data, error } = await serviceClient(stack)
      .from('profiles')
      .update({ account_tier: 'pro' })
      .eq('id', user.id)
      .select()
      .single();
    expect(error).toBeNull();
    expect(data?.account_tier).toBe('pro');

    // The owner can still save their editable fields, and the server's value stays.
    const saved = await user.client
      .from('profiles')
      .upsert({ id: user.id, username: 'promoted_user' })
      .select()
      .single();
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({ username: 'promoted_user', account_tier: 'pro' });
    const demoted = await user.client.from('profiles').upsert({ id: user.id, account_tier: 'basic' });
    expect(demoted.error?.code).toBe('42501');
  });

  it('refuses a website that is not http(s)', async () => {
    const user = await signedInUser(stack, 'website');
    const { error } = await user.client
      .from('profiles')
      .upsert({ id: user.id, website: 'javascript:alert(1)' })
      .select()
      .single();
    expect(error?.message).toContain('profiles_website_is_http');
  });

  describe('row level security', () => {
    it('hides a profile from another user and from anon, and lets neither change it', async () => {
      const owner = await signedInUser(stack, 'owner');
      const other = await signedInUser(stack, 'other');
      const created = await owner.client
        .from('profiles')
        .upsert({ id: owner.id, username: 'owner' })
        .select()
        .single();

      const seenByOther = await other.client.from('profiles').select('*').eq('id', owner.id);
      expect(seenByOther.data).toEqual([]);
      const seenByAnon = await anonClient(stack).from('profiles').select('*').eq('id', owner.id);
      expect(seenByAnon.data ?? []).toEqual([]);

      // RLS answers a forbidden update or delete with zero affected rows and a
      // forbidden insert with an error; either way the row must stay as it was.
      const otherUpdate = await other.client
        .from('profiles')
        .update({ username: 'hijacked' })
        .eq('id', owner.id)
        .select();
      expect(otherUpdate.data ?? []).toEqual([]);
      const otherUpsert = await other.client.from('profiles').upsert({ id: owner.id, username: 'hijacked' });
      expect(otherUpsert.error?.code).toBe('42501');
      const anonUpdate = await anonClient(stack)
        .from('profiles')
        .update({ username: 'hijacked' })
        .eq('id', owner.id)
        .select();
      expect(anonUpdate.data ?? []).toEqual([]);
      const anonDelete = await anonClient(stack).from('profiles').delete().eq('id', owner.id).select();
      expect(anonDelete.data ?? []).toEqual([]);
      // Profiles live as long as the account: not even the owner deletes one.
      const ownerDelete = await owner.client.from('profiles').delete().eq('id', owner.id).select();
      expect(ownerDelete.data ?? []).toEqual([]);

      const after = await serviceClient(stack).from('profiles').select('*').eq('id', owner.id).single();
      expect(after.data).toEqual(created.data);
    });
  });
});

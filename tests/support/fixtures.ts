import type { AuthUser, Profile } from '../../src/services/supabase/types.ts';

// A profile row as the database returns one for `user`: every field at its default
// (docs/product.md#tables), then `fields`. Tests change only what they are about.
export function profileRow(user: Pick<AuthUser, 'id' | 'email'>, fields: Partial<Profile> = {}): Profile {
  return {
    id: user.id,
    email: user.email,
    wallet_address: null,
    wallet_verified_at: null,
    mc_wallet_address: null,
    updated_at: '2026-01-01T00:00:00Z',
    created_at: '2026-01-01T00:00:00Z',
    username: 'ada',
    role: 'user',
    avatar_url: null,
    full_name: null,
    website: null,
    theme_preference: 'dark',
    hcaptcha_sim_verified: false,
    last_dex_activity: null,
    two_factor_enabled: false,
    last_login_ip: null,
    kyc_status: 'pending',
    account_tier: 'basic',
    preferred_language: 'en',
    notification_preferences: {},
    api_key_count: 0,
    referral_code: null,
    referred_by_user_id: null,
    ...fields,
  };
}

/** A signed-in user as the auth service reports one: e-mail unconfirmed, no wallet, no metadata. */
export function authUser(id: string, email = `${id}@example.com`): AuthUser {
  return { id, email, emailConfirmedAt: null, web3Address: null, metadata: {} };
}

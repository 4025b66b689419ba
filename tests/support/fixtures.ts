import type { Bot, BotRule, BotRun } from '../../src/domain/bots.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
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

/**
 * A signed-in user as the auth service reports one: e-mail unconfirmed, no wallet, no metadata;
 * then `fields`.
 */
export function authUser(
  id: string,
  email: string | null = `${id}@example.com`,
  fields: Partial<AuthUser> = {},
): AuthUser {
  return { id, email, emailConfirmedAt: null, web3Address: null, metadata: {}, ...fields };
}

/** Ada, her e-mail confirmed: the user the auth, profile-load and profile machines' tests sign in. */
export const ada: AuthUser = authUser('u-1', 'ada@example.com', { emailConfirmedAt: '2024-01-01' });

/** Row `id` of Alice's history as the backend lists it: a 1 DDEX transfer, submitted; then `fields`. */
export function transactionRow(id: string, fields: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id,
    user_id: 'alice',
    created_at: '2025-01-01T00:00:00Z',
    type: 'token_transfer',
    status: 'submitted',
    amount: '1',
    asset_amount: null,
    token_symbol: 'DDEX',
    asset_symbol: null,
    tx_hash: `0x${id}`,
    transaction_hash: null,
    ...fields,
  };
}

/** A run of bot `botId`: a buy that moved the price from 0.002 to 0.00213; then `fields`. */
export function botRun(id: string, botId: string, fields: Partial<BotRun> = {}): BotRun {
  return {
    id,
    botId,
    txHash: `0x${'ab'.repeat(32)}`,
    blockTime: '2026-01-02T00:00:00Z',
    priceBefore: 0.002,
    priceAfter: 0.00213,
    ddexAmount: 1234.5,
    side: 'buy',
    ...fields,
  };
}

/** A bot as the backend returns one: active, a 15-minute cooldown, never fired; then `fields`. */
export function botRow(id: string, name: string, rule: BotRule, fields: Partial<Bot> = {}): Bot {
  return {
    id,
    name,
    rule,
    cooldownMinutes: 15,
    status: 'active',
    lastFiredAt: null,
    createdAt: '2026-01-01T00:00:00Z',
    ...fields,
  };
}

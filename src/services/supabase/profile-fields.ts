import type { ProfileUpsert } from './types.ts';

// The profiles guard (migration 20261121000001) refuses any client change to a
// server-owned field, and sets created_at and updated_at itself. So the
// service sends only what the user owns: a profile fetched earlier can be
// saved back even after the server changed, say, its account tier. The
// wallet is the server's too: the link-wallet function links it after a
// signed proof, and the owner may only clear it (the service's clearWallet).

export const CLIENT_PROFILE_FIELDS = [
  'id',
  'email',
  'mc_wallet_address',
  'username',
  'full_name',
  'website',
  'avatar_url',
  'theme_preference',
  'preferred_language',
  'notification_preferences',
] as const;

export type ClientProfileField = (typeof CLIENT_PROFILE_FIELDS)[number];
export type ClientProfileFields = Pick<ProfileUpsert, ClientProfileField>;

/** The client-owned fields of `row` that are present (an absent field is left as the row has it). */
export function clientProfileFields(row: ProfileUpsert): ClientProfileFields {
  const picked: Partial<Record<ClientProfileField, unknown>> = {};
  for (const field of CLIENT_PROFILE_FIELDS) {
    if (row[field] !== undefined) picked[field] = row[field];
  }
  return picked as ClientProfileFields;
}

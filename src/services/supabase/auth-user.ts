import type { User, UserIdentity } from '@supabase/supabase-js';
import { isAddress } from '../../domain/wallet.ts';
import { checksumAddress } from '../wallet/address.ts';
import type { AuthUser, UserMetadata } from './types.ts';

const METADATA_FIELDS = ['wallet_address', 'username', 'avatar_url', 'full_name'] as const;

/** Supabase Auth names a Sign in with Ethereum identity `web3:ethereum:<address as signed>`. */
const WEB3_IDENTITY = 'web3:ethereum:';

/**
 * The fields of docs/product.md#auth-metadata only, and only string or null values: user_metadata
 * is whatever anyone wrote.
 */
function metadataOf(raw: unknown): UserMetadata {
  const metadata: UserMetadata = {};
  if (typeof raw !== 'object' || raw === null) return metadata;
  const source = raw as Record<string, unknown>;
  for (const field of METADATA_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || value === null) metadata[field] = value;
  }
  return metadata;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * The address an Ethereum web3 identity was signed with: its claims first, else its provider id.
 * Checksummed, as the wallet panel shows addresses: supabase-js signs it in lower case.
 */
function web3AddressOf(identity: UserIdentity): string | null {
  if (identity.provider !== 'web3') return null;
  const data: unknown = identity.identity_data;
  const claims = isRecord(data) ? data['custom_claims'] : undefined;
  const claimed = isRecord(claims) ? claims['address'] : undefined;
  if (typeof claimed === 'string' && isAddress(claimed)) return checksumAddress(claimed);
  for (const id of [identity.id, isRecord(data) ? data['sub'] : undefined]) {
    const signed =
      typeof id === 'string' && id.startsWith(WEB3_IDENTITY) ? id.slice(WEB3_IDENTITY.length) : '';
    if (isAddress(signed)) return checksumAddress(signed);
  }
  return null;
}

export function toAuthUser(user: User): AuthUser {
  let web3Address: string | null = null;
  for (const identity of user.identities ?? []) web3Address ??= web3AddressOf(identity);
  return {
    id: user.id,
    // Supabase Auth answers "" for a user without one (a wallet-only user).
    email: user.email || null,
    emailConfirmedAt: user.email_confirmed_at ?? null,
    web3Address,
    metadata: metadataOf(user.user_metadata),
  };
}

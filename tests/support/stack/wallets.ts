import { FunctionsHttpError } from '@supabase/supabase-js';
import type { Address, Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { Database } from '../../../src/domain/database.types.ts';
import type { Client, FileUsers, TestUser } from './users.ts';

// Users' wallets on the stack. Proving a wallet to the link-wallet function as the portal does,
// through the unmodified supabase-js: ask for a nonce for an address, have the wallet sign an
// EIP-4361 message with it for the layer's chain (here a viem local account, e.g. a Hardhat test
// key, signing with signMessage), and send the message and signature back. Tests that only need a
// profile's wallet state set it as the server would, with setWalletAsServer, or sign in a user who
// holds a wallet already with userWithWallet.

type ProfileRow = Database['public']['Tables']['profiles']['Row'];

/** What a proof is signed for: the chain the layer's stack runs (`inject('chain')`, `e2e().chain`). */
export type ProofChain = { chainId: number };

/** The portal's origin on the local stack (the gateway's site URL), which messages are signed for. */
export const PORTAL_ORIGIN = 'http://127.0.0.1:5173';
/** How long the messages built here are valid for: well within link-wallet's 10 minutes. */
const VALIDITY_MS = 5 * 60 * 1000;

/** What link-wallet answered: its status and JSON body. */
export type LinkAnswer = {
  status: number;
  body: {
    nonce?: string;
    expiresAt?: string;
    profile?: ProfileRow;
    error?: string;
    code?: string;
    message?: string;
    /** Seconds until asking again can succeed (429 too_many_nonces). */
    retryAfter?: number;
  };
};

/**
 * A wallet of a fresh random key: signing needs no funds, and no other test file can hold its
 * address (an address has one owner).
 */
export function freshWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** Calls link-wallet as the portal does (functions.invoke with the user's session) and reads any answer. */
export async function callLinkWallet(client: Client, body: unknown): Promise<LinkAnswer> {
  const { data, error, response } = await client.functions.invoke('link-wallet', {
    body: body as Record<string, unknown>,
  });
  if (error instanceof FunctionsHttpError) {
    const answer = error.context as Response;
    return { status: answer.status, body: (await answer.json()) as LinkAnswer['body'] };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data as LinkAnswer['body'] };
}

/** A nonce link-wallet issued to the client's user for `address`; throws on any refusal. */
export async function requestNonce(client: Client, address: string): Promise<string> {
  const answer = await callLinkWallet(client, { address });
  if (answer.status !== 200 || typeof answer.body.nonce !== 'string') {
    throw new Error(`no nonce for ${address}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body.nonce;
}

export type ProofFields = {
  /** The address the message claims; the signer's own by default (a contract wallet's differs). */
  address?: Address;
  domain?: string;
  uri?: string;
  /** The chain's own id by default. */
  chainId?: number;
  issuedAt?: Date;
  expirationTime?: Date;
};

/** An EIP-4361 message for the portal on `chain`, as the portal builds it. */
export function proofMessage(
  chain: ProofChain,
  address: Address,
  nonce: string,
  fields: ProofFields = {},
): string {
  const uri = fields.uri ?? `${PORTAL_ORIGIN}/`;
  const issuedAt = fields.issuedAt ?? new Date();
  return createSiweMessage({
    address: fields.address ?? address,
    domain: fields.domain ?? new URL(uri).host,
    uri,
    chainId: fields.chainId ?? chain.chainId,
    nonce,
    issuedAt,
    expirationTime: fields.expirationTime ?? new Date(issuedAt.getTime() + VALIDITY_MS),
    statement: 'Link this wallet to my DDEX Token Portal account.',
    version: '1',
  });
}

export type ProofOverrides = ProofFields & {
  /** Who signs; `account` by default. */
  signer?: LocalAccount;
  /** Use this nonce instead of asking for a new one. */
  nonce?: string;
  /** Send this signature instead of the signer's; null sends none. */
  signature?: Hex | null;
};

/**
 * Links `account`'s wallet (or `overrides.address`) to the client's user: a fresh nonce, a
 * message for it on `chain` signed by the account, and the link call. Returns what link-wallet
 * answered.
 */
export async function linkWithProof(
  chain: ProofChain,
  client: Client,
  account: LocalAccount,
  overrides: ProofOverrides = {},
): Promise<LinkAnswer> {
  const address = overrides.address ?? account.address;
  const nonce = overrides.nonce ?? (await requestNonce(client, address));
  const message = proofMessage(chain, account.address, nonce, overrides);
  const signer = overrides.signer ?? account;
  if (!signer.signMessage) throw new Error(`${signer.address} cannot sign messages`);
  const signature =
    overrides.signature === undefined ? await signer.signMessage({ message }) : overrides.signature;
  return callLinkWallet(client, signature === null ? { message } : { message, signature });
}

/**
 * Sets a profile's wallet as only the server can (the service role), creating the profile if need
 * be: verified, as after a proof; or not, as a wallet no proof stands behind.
 */
export async function setWalletAsServer(
  service: Client,
  userId: string,
  address: string | null,
  verified: boolean,
): Promise<ProfileRow> {
  const { data, error } = await service
    .from('profiles')
    .upsert(
      {
        id: userId,
        wallet_address: address,
        wallet_verified_at: verified && address !== null ? new Date().toISOString() : null,
      },
      { onConflict: 'id' },
    )
    .select()
    .single();
  if (error) throw new Error(`setting ${userId}'s wallet failed: ${error.code} ${error.message}`);
  return data;
}

/** Takes `address` off whichever profile holds it (one may: wallets are unique), as the server can. */
export async function releaseWalletAsServer(service: Client, address: string): Promise<void> {
  const { error } = await service
    .from('profiles')
    .update({ wallet_address: null })
    .ilike('wallet_address', address);
  if (error) throw new Error(`releasing ${address} failed: ${error.message}`);
}

/**
 * One of the file's signed-in users, holding `wallet`: the user upserts their own profile, and the
 * server takes the wallet over from whoever held it (a wallet has one owner) and sets it, proven as
 * link-wallet leaves it unless `verified` is false. A null wallet leaves a profile without one;
 * undefined leaves the user without a profile.
 */
export async function userWithWallet(
  users: FileUsers,
  label: string,
  wallet?: string | null,
  { verified = true }: { verified?: boolean } = {},
): Promise<TestUser> {
  const user = await users.signIn(label);
  if (wallet !== undefined) {
    const { error } = await user.client.from('profiles').upsert({ id: user.id, email: user.email });
    if (error) throw new Error(`profile upsert failed: ${error.message}`);
    if (wallet !== null) await releaseWalletAsServer(users.service, wallet);
    await setWalletAsServer(users.service, user.id, wallet, verified);
  }
  return user;
}

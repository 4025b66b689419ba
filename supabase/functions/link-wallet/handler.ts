import type { SupabaseClient } from '@supabase/supabase-js';
import {
  createPublicClient,
  http,
  isAddressEqual,
  isErc6492Signature,
  recoverMessageAddress,
  type Address,
  type Hex,
} from 'viem';
import { parseSiweMessage, verifySiweMessage } from 'viem/siwe';
import { readBodyLimited } from '../_shared/body.ts';
import { bearerToken, callerId } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import {
  checkProofMessage,
  MAX_BODY_BYTES,
  newNonce,
  NONCE_TTL_MS,
  parseLinkRequest,
  siteOrigins,
  type Proof,
} from './proof.ts';

// link-wallet makes a profile's wallet a proven one. The signed-in user asks for a nonce for an
// address, has the wallet sign an EIP-4361 message carrying it, and sends the message and the
// signature back; only then does the function write the address on the profile, with the time it
// was proven. process-payments and record-transaction trust no other wallet. The signature is
// checked through the chain (viem's universal validator), so a smart-contract wallet (EIP-1271)
// proves itself as a key does. Like the other functions it is a plain Web-API handler: the same
// module runs on Supabase Edge Functions (Deno, see index.ts) and on the local stack (Node).

export type LinkWalletDeps = {
  /** A service-role client: it resolves the caller's token and writes what no user may write. */
  supabase: SupabaseClient<Database>;
  /** The JSON-RPC endpoint of the portal's chain, for contract wallets' signatures. */
  rpcUrl: string;
  /** The chain a message must be signed for. */
  chainId: number;
  /** The portal's origin, or a comma-separated list of them: a message must be signed on one. */
  siteUrl: string;
  now?: () => Date;
};

export type LinkWalletCode =
  | 'unauthorized'
  | 'malformed'
  | 'too_large'
  | 'method_not_allowed'
  | 'wallet_taken'
  | 'proof_domain'
  | 'proof_chain'
  | 'proof_expired'
  | 'proof_signature'
  | 'proof_nonce'
  | 'proof_replayed'
  | 'too_many_nonces'
  | 'chain_unavailable'
  | 'link_failed';

/** Each refusal's status and short title; the message says what to do. */
const REFUSALS: Record<LinkWalletCode, { status: number; error: string }> = {
  unauthorized: { status: 401, error: 'Unauthorized' },
  malformed: { status: 400, error: 'Malformed request' },
  too_large: { status: 413, error: 'Payload too large' },
  method_not_allowed: { status: 405, error: 'Method not allowed' },
  wallet_taken: { status: 409, error: 'Wallet already linked' },
  proof_domain: { status: 403, error: 'Signed for another site' },
  proof_chain: { status: 403, error: 'Signed for another chain' },
  proof_expired: { status: 403, error: 'Proof expired' },
  proof_signature: { status: 403, error: 'Signature not valid' },
  proof_nonce: { status: 403, error: 'Unknown nonce' },
  proof_replayed: { status: 403, error: 'Proof already used' },
  too_many_nonces: { status: 429, error: 'Too many requests' },
  chain_unavailable: { status: 502, error: 'Chain unavailable' },
  link_failed: { status: 500, error: 'Linking failed' },
};

const UNIQUE_VIOLATION = '23505';
/** Expired nonces are kept this long, so a late link hears "expired" rather than "unknown". */
const NONCE_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How many wallets one user may ask nonces for within a nonce's lifetime: a person proves one
 * wallet, sometimes a few; more is somebody filling the table (asking again for the same wallet
 * replaces its nonce and is not counted).
 */
export const NONCE_LIMIT = 5;

const TAKEN =
  'This wallet is already linked to another account. Unlink it there first, or connect another wallet';

/** A refusal the handler answers with; anything else thrown is a 500. */
class Refusal extends Error {
  constructor(
    readonly code: LinkWalletCode,
    message: string,
    /** Seconds until asking again can succeed (429 only): in the body and as Retry-After. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The chain could not be asked whether a contract wallet's signature is valid. */
class ChainError extends Error {}

function refusal(code: LinkWalletCode, message: string, headers: Record<string, string> = {}): Response {
  const { status, error } = REFUSALS[code];
  return reply(status, { error, code, message }, headers);
}

export function createLinkWalletHandler(deps: LinkWalletDeps): (request: Request) => Promise<Response> {
  // Fail at start-up, not on the first request: without these no proof could ever pass.
  if (!deps.rpcUrl) throw new Error('link-wallet needs the chain RPC URL');
  if (!Number.isSafeInteger(deps.chainId) || deps.chainId <= 0) {
    throw new Error('link-wallet needs the chain id (a positive integer)');
  }
  const origins = siteOrigins(deps.siteUrl);
  const { supabase, chainId } = deps;
  const now = deps.now ?? (() => new Date());
  const chain = createPublicClient({ transport: http(deps.rpcUrl, { retryCount: 0, timeout: 10_000 }) });

  /** The caller's user id, from the bearer token of their session. */
  const callerOf = async (request: Request): Promise<string> => {
    if (bearerToken(request.headers.get('authorization')) === null) {
      throw new Refusal(
        'unauthorized',
        'Sign in first: the request needs the bearer token of a signed-in user',
      );
    }
    const userId = await callerId(supabase, request);
    if (!userId) {
      throw new Refusal('unauthorized', 'The bearer token is not a signed-in user’s session; sign in again');
    }
    return userId;
  };

  /** Refuses an address another user's profile holds, in any letter case. */
  const refuseIfTaken = async (address: Address, userId: string): Promise<void> => {
    const holders = await supabase
      .from('profiles')
      .select('id')
      .ilike('wallet_address', address)
      .neq('id', userId)
      .limit(1);
    if (holders.error) throw new Error(`profile lookup failed: ${holders.error.message}`);
    if (holders.data.length > 0) throw new Refusal('wallet_taken', TAKEN);
  };

  /**
   * Refuses a user who already holds NONCE_LIMIT nonces issued within a nonce's lifetime, saying
   * when the oldest of them stops counting.
   */
  const refuseIfTooMany = async (userId: string, issuedAt: Date): Promise<void> => {
    const since = new Date(issuedAt.getTime() - NONCE_TTL_MS);
    const recent = await supabase
      .from('wallet_link_nonces')
      .select('issued_at')
      .eq('user_id', userId)
      .gt('issued_at', since.toISOString())
      .order('issued_at', { ascending: true })
      .limit(NONCE_LIMIT);
    if (recent.error) throw new Error(`counting the user's nonces failed: ${recent.error.message}`);
    const oldest = recent.data[0]?.issued_at;
    if (recent.data.length < NONCE_LIMIT || !oldest) return;
    const retryAfter = Math.max(
      1,
      Math.ceil((Date.parse(oldest) + NONCE_TTL_MS - issuedAt.getTime()) / 1000),
    );
    throw new Refusal(
      'too_many_nonces',
      `You asked to prove ${NONCE_LIMIT} wallets in the last ${NONCE_TTL_MS / 60_000} minutes; try again in ${Math.ceil(retryAfter / 60)} minutes`,
      retryAfter,
    );
  };

  // Whether another account holds the address is said only when linking, to a proof of the
  // wallet: a nonce is given for any address, so asking for one tells nobody who owns what.
  const issueNonce = async (userId: string, address: Address): Promise<Response> => {
    const issuedAt = now();
    const purged = await supabase
      .from('wallet_link_nonces')
      .delete()
      .lt('expires_at', new Date(issuedAt.getTime() - NONCE_RETENTION_MS).toISOString());
    if (purged.error) throw new Error(`purging expired nonces failed: ${purged.error.message}`);
    // One nonce per user and address at a time: asking again replaces the last one unused.
    const replaced = await supabase
      .from('wallet_link_nonces')
      .delete()
      .eq('user_id', userId)
      .ilike('address', address)
      .is('used_at', null);
    if (replaced.error) throw new Error(`replacing the earlier nonce failed: ${replaced.error.message}`);
    await refuseIfTooMany(userId, issuedAt);
    const nonce = newNonce();
    const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_MS).toISOString();
    const stored = await supabase.from('wallet_link_nonces').insert({
      nonce,
      user_id: userId,
      address,
      issued_at: issuedAt.toISOString(),
      expires_at: expiresAt,
    });
    if (stored.error) throw new Error(`storing the nonce failed: ${stored.error.message}`);
    return reply(200, { nonce, expiresAt });
  };

  /** The nonce's record must be this user's, for this address, unused and unexpired. */
  const checkNonce = async (proof: Proof, userId: string, at: Date): Promise<void> => {
    const found = await supabase
      .from('wallet_link_nonces')
      .select('*')
      .eq('nonce', proof.nonce)
      .maybeSingle();
    if (found.error) throw new Error(`nonce lookup failed: ${found.error.message}`);
    const record = found.data;
    if (
      record === null ||
      record.user_id !== userId ||
      record.address.toLowerCase() !== proof.address.toLowerCase()
    ) {
      throw new Refusal(
        'proof_nonce',
        'The message carries a nonce this portal did not give you for this wallet; start linking again',
      );
    }
    if (record.used_at !== null) {
      throw new Refusal('proof_replayed', 'This signed message has already been used; start linking again');
    }
    if (Date.parse(record.expires_at) <= at.getTime()) {
      throw new Refusal('proof_expired', 'The nonce has expired; start linking again');
    }
  };

  /**
   * The chain the node serves must be the one proofs are signed for: a contract wallet's address
   * can have other owners on another chain. Asked once; a node that cannot answer is asked again.
   */
  let chainChecked: Promise<void> | null = null;
  const checkChain = () => {
    chainChecked ??= (async () => {
      let served: number;
      try {
        served = await chain.getChainId();
      } catch (error) {
        throw new ChainError('reading the node’s chain id failed', { cause: error });
      }
      if (served !== chainId) throw new Error(`RPC_URL serves chain ${served}, not CHAIN_ID ${chainId}`);
    })().catch((error: unknown) => {
      chainChecked = null;
      throw error;
    });
    return chainChecked;
  };

  const verifySignature = async (message: string, signature: Hex, proof: Proof, at: Date) => {
    // A key's signature is checked here, without the node: an outage then costs only contract
    // wallets, and for them it is an outage, not a refusal (viem's validator reads every failed
    // call as "not valid").
    const recovered = await recoverMessageAddress({ message, signature }).catch(() => null);
    if (recovered !== null && isAddressEqual(recovered, proof.address)) return;
    await checkChain();
    let code: Hex | undefined;
    try {
      code = await chain.getCode({ address: proof.address });
    } catch (error) {
      throw new ChainError('reading the wallet’s code failed', { cause: error });
    }
    // No code and no ERC-6492 wrapper (a wallet not deployed yet): nothing else could have signed.
    const contract = (code !== undefined && code !== '0x') || isErc6492Signature(signature);
    let valid = false;
    if (contract) {
      try {
        valid = await verifySiweMessage(chain, {
          message,
          signature,
          address: proof.address,
          domain: proof.domain,
          nonce: proof.nonce,
          // The message's times were checked above, with a minute's grace for a browser clock
          // ahead of this one; viem has none, so it looks from no earlier than the not-before time.
          time: new Date(Math.max(at.getTime(), parseSiweMessage(message).notBefore?.getTime() ?? 0)),
        });
      } catch (error) {
        throw new ChainError('verifying the signature through the chain failed', { cause: error });
      }
    }
    if (!valid) {
      throw new Refusal(
        'proof_signature',
        'The signature does not prove this wallet: it was not made by the wallet the message names',
      );
    }
  };

  /** Spends the nonce: one conditional update, so of two concurrent links with it only one gets here. */
  const spendNonce = async (proof: Proof, userId: string, at: Date): Promise<void> => {
    const spent = await supabase
      .from('wallet_link_nonces')
      .update({ used_at: at.toISOString() })
      .eq('nonce', proof.nonce)
      .eq('user_id', userId)
      .is('used_at', null)
      .gt('expires_at', at.toISOString())
      .select('nonce');
    if (spent.error) throw new Error(`spending the nonce failed: ${spent.error.message}`);
    if (spent.data.length === 0) {
      throw new Refusal('proof_replayed', 'This signed message has already been used; start linking again');
    }
  };

  const link = async (userId: string, message: string, signature: Hex): Promise<Response> => {
    const at = now();
    const checked = checkProofMessage(message, { origins, chainId, now: at });
    if (!checked.ok) throw new Refusal(checked.code, checked.message);
    const { proof } = checked;
    await checkNonce(proof, userId, at);
    await refuseIfTaken(proof.address, userId);
    await verifySignature(message, signature, proof, at);
    await spendNonce(proof, userId, at);
    const linked = await supabase
      .from('profiles')
      .upsert(
        { id: userId, wallet_address: proof.address, wallet_verified_at: now().toISOString() },
        { onConflict: 'id' },
      )
      .select()
      .single();
    if (linked.error) {
      // Another user linked the address between the check above and this write.
      if (linked.error.code === UNIQUE_VIOLATION) throw new Refusal('wallet_taken', TAKEN);
      throw new Error(`linking failed: ${linked.error.message}`);
    }
    return reply(200, { profile: linked.data });
  };

  const handle = async (request: Request): Promise<Response> => {
    const userId = await callerOf(request);
    const parsed = parseLinkRequest(await readBody(request));
    if (!parsed.ok) throw new Refusal('malformed', parsed.message);
    const { request: body } = parsed;
    return body.kind === 'nonce'
      ? issueNonce(userId, body.address)
      : link(userId, body.message, body.signature);
  };

  return async (request) => {
    if (request.method !== 'POST') {
      return refusal('method_not_allowed', 'link-wallet accepts POST only', { allow: 'POST' });
    }
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof Refusal) {
        if (error.retryAfter === null) return refusal(error.code, error.message);
        const { status, error: title } = REFUSALS[error.code];
        return reply(
          status,
          { error: title, code: error.code, message: error.message, retryAfter: error.retryAfter },
          { 'retry-after': String(error.retryAfter) },
        );
      }
      // One line of the error itself: viem's full messages quote the call's arguments (the
      // signature among them), and its causes the RPC URL, whose path may hold a provider's key.
      logError('link-wallet', 'failed', error);
      if (error instanceof ChainError) {
        return refusal(
          'chain_unavailable',
          'The blockchain node could not be asked about this wallet’s signature; try again shortly',
        );
      }
      return refusal('link_failed', 'The wallet could not be linked; try again later');
    }
  };
}

/** The body as text, refused beyond MAX_BODY_BYTES whether or not it declares its length. */
async function readBody(request: Request): Promise<string> {
  const body = await readBodyLimited(request, MAX_BODY_BYTES);
  if ('tooLarge' in body) {
    throw new Refusal(
      'too_large',
      `The request body is larger than ${MAX_BODY_BYTES} bytes; send only the proof`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
  } catch {
    throw new Refusal('malformed', 'The request body is not UTF-8 text');
  }
}

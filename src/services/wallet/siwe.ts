import { createSiweMessage } from 'viem/siwe';

// The EIP-4361 (Sign in with Ethereum) message that proves a wallet to the
// link-wallet function (docs/product.md#wallet-sync). Pure: the caller gives
// the page, the chain, the nonce and the time. viem's siwe code is imported
// only here, and this module only on a wallet's first proof, so none of it is
// in the first download (src/app/provide-portal.ts loads it). It imports
// nothing of the portal's either: a module shared with the page would become
// a chunk of its own that the page then loads too.

/** WALLET_PROOF_VALIDITY_MS of src/domain/wallet.ts (tests/unit/siwe-message.test.ts keeps them equal). */
export const MAX_VALIDITY_MS = 10 * 60 * 1000;

export type SiweMessageInput = {
  /** The page asking: its host is the message's domain, the whole URL its URI. */
  url: string;
  chainId: number;
  /** The wallet's address, checksummed or not (the message carries it checksummed). */
  address: string;
  nonce: string;
  now: Date;
  /** The plain-language line the wallet shows above the fields (no line breaks). */
  statement: string;
  /** When the nonce runs out, if sooner than the message would (its expiry is then the nonce's). */
  notAfter?: Date | null;
};

/**
 * The message to sign: domain and URI from the page, version 1, issued now and expiring
 * MAX_VALIDITY_MS later (or when the nonce does, if that is sooner), never later.
 * Throws an Error with viem's short reason for a field it refuses (a nonce that is not alphanumeric,
 * a URL that is no authority, a statement with a line break).
 */
export function siweMessage(input: SiweMessageInput): string {
  const page = new URL(input.url);
  const latest = input.now.getTime() + MAX_VALIDITY_MS;
  const notAfter = input.notAfter?.getTime() ?? Number.NaN;
  const expires = Number.isFinite(notAfter) ? Math.min(latest, notAfter) : latest;
  try {
    return createSiweMessage({
      domain: page.host,
      address: input.address as `0x${string}`,
      statement: input.statement,
      uri: page.origin,
      version: '1',
      chainId: input.chainId,
      nonce: input.nonce,
      issuedAt: input.now,
      // Also a valid Sign in with Ethereum message for this site: hosted Auth holds such a message
      // to its expiry only when it has a not-before time, so it gets one.
      notBefore: input.now,
      expirationTime: new Date(expires),
    });
  } catch (error) {
    const reason = (error as { shortMessage?: unknown }).shortMessage;
    throw new Error(typeof reason === 'string' ? reason : String(error), { cause: error });
  }
}

/**
 * A nonce for a Sign in with Ethereum message, which no server issues (Supabase Auth keeps none;
 * it bounds the message by its times): EIP-4361 still asks for 8 or more letters and digits.
 */
export { generateSiweNonce as siweNonce } from 'viem/siwe';

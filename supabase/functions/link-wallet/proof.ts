import { getAddress, isAddress, type Address, type Hex } from 'viem';
import { parseSiweMessage } from 'viem/siwe';

// The parts of link-wallet that need neither the database nor a chain: the
// request bodies it accepts, the nonces it hands out, and every check of a
// signed EIP-4361 message short of its signature. tests/unit/link-wallet-request.test.ts
// covers them.

/** How long a nonce may be used, and the longest a signed message may be valid for. */
export const NONCE_TTL_MS = 10 * 60 * 1000;
export const MAX_PROOF_VALIDITY_MS = 10 * 60 * 1000;
/** How far ahead of this server's clock a wallet's clock may be. */
export const CLOCK_SKEW_MS = 60 * 1000;
/** A body larger than this is no request of the portal's (a message is well under 1 kB). */
export const MAX_BODY_BYTES = 16 * 1024;
export const NONCE_LENGTH = 24;

export type LinkWalletRequest =
  { kind: 'nonce'; address: Address } | { kind: 'link'; message: string; signature: Hex };

export type ParsedRequest = { ok: true; request: LinkWalletRequest } | { ok: false; message: string };

/** The codes of the refusals a message can earn before its signature is looked at. */
export type ProofProblem = 'malformed' | 'proof_domain' | 'proof_chain' | 'proof_expired';

/** What a message that passed these checks claims. */
export type Proof = {
  /** The address the message is signed for, checksummed. */
  address: Address;
  domain: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
};

export type CheckedProof = { ok: true; proof: Proof } | { ok: false; code: ProofProblem; message: string };

export type ProofRules = {
  /** The portal's origins (SITE_URL): a message must be signed for a page of one of them. */
  origins: readonly string[];
  /** The chain the portal runs on (CHAIN_ID). */
  chainId: number;
  now: Date;
};

const SIGNATURE = /^0x(?:[0-9a-fA-F]{2})+$/;
const NONCE = /^[a-zA-Z0-9]{8,}$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const USAGE = 'Send {"address": "0x…"} for a nonce, or {"message": "…", "signature": "0x…"} to link';

/** The body of a request, or what is wrong with it in words the caller can act on. */
export function parseLinkRequest(text: string): ParsedRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: `The request body is not valid JSON. ${USAGE}.` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: `The request body must be a JSON object. ${USAGE}.` };
  }
  const { address, message, signature } = body as Record<string, unknown>;
  const linking = message !== undefined || signature !== undefined;
  if (linking && address !== undefined) {
    return { ok: false, message: `Ask for a nonce or link a wallet, not both at once. ${USAGE}.` };
  }
  if (!linking) {
    if (address === undefined || address === null || address === '') {
      return { ok: false, message: `The wallet address is missing. ${USAGE}.` };
    }
    if (typeof address !== 'string' || !isAddress(address)) {
      return {
        ok: false,
        message:
          'The wallet address is not valid: 0x and 40 hex digits, with a correct checksum if mixed-case',
      };
    }
    return { ok: true, request: { kind: 'nonce', address } };
  }
  if (typeof message !== 'string' || message.trim() === '') {
    return { ok: false, message: 'The signed message is missing' };
  }
  if (signature === undefined || signature === null || signature === '') {
    return { ok: false, message: 'The signature is missing: ask your wallet to sign the message' };
  }
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
    return { ok: false, message: 'The signature is not valid: 0x followed by hex bytes' };
  }
  return { ok: true, request: { kind: 'link', message, signature: signature as Hex } };
}

/** The origins of SITE_URL, a URL or a comma-separated list of them; throws on one that is no URL. */
export function siteOrigins(siteUrl: string): string[] {
  const origins = siteUrl
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part);
      } catch {
        throw new Error(`SITE_URL: "${part}" is not a URL`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new Error(`SITE_URL: "${part}" is not an http(s) URL`);
      }
      return url.origin;
    });
  if (origins.length === 0) throw new Error('SITE_URL names no origin');
  return [...new Set(origins)];
}

/** A random nonce of NONCE_LENGTH letters and digits (about 143 bits; EIP-4361 asks for 8 or more). */
export function newNonce(): string {
  let nonce = '';
  while (nonce.length < NONCE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(NONCE_LENGTH))) {
      // 248 is 4 × 62: the bytes above it would make the first letters likelier than the rest.
      if (byte < 248 && nonce.length < NONCE_LENGTH) nonce += ALPHANUMERIC[byte % ALPHANUMERIC.length];
    }
  }
  return nonce;
}

const refuse = (code: ProofProblem, message: string): CheckedProof => ({ ok: false, code, message });
const validDate = (value: Date | undefined): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime());

/**
 * Every check of a signed message that needs no key and no database: that it is an EIP-4361
 * message with the fields the portal signs, for one of the portal's pages, for its chain, and
 * valid now for at most ten minutes. The nonce and the signature are the handler's to check.
 */
export function checkProofMessage(message: string, rules: ProofRules): CheckedProof {
  const fields = parseSiweMessage(message);
  const missing = (
    [
      ['address', fields.address],
      ['domain', fields.domain],
      ['URI', fields.uri],
      ['chain ID', fields.chainId],
      ['nonce', fields.nonce],
      ['issued-at time', fields.issuedAt],
      ['expiration time', fields.expirationTime],
      ['version', fields.version],
    ] as const
  )
    .filter(([, value]) => value === undefined || value === '')
    .map(([name]) => name);
  if (!fields.address || !fields.domain) {
    return refuse('malformed', 'The signed message is not a Sign-In with Ethereum (EIP-4361) message');
  }
  if (missing.length > 0) {
    return refuse('malformed', `The signed message lacks its ${missing.join(', ')}`);
  }
  if (fields.version !== '1') return refuse('malformed', 'The signed message must be of version 1');
  if (!isAddress(fields.address)) {
    return refuse('malformed', 'The address in the signed message is not a valid Ethereum address');
  }
  if (!fields.nonce || !NONCE.test(fields.nonce)) {
    return refuse('malformed', 'The nonce in the signed message must be at least 8 letters or digits');
  }
  const { issuedAt, expirationTime, notBefore } = fields;
  if (!validDate(issuedAt) || !validDate(expirationTime) || (notBefore && !validDate(notBefore))) {
    return refuse('malformed', 'The times in the signed message are not RFC 3339 date-times');
  }
  let uri: URL;
  try {
    uri = new URL(fields.uri ?? '');
  } catch {
    return refuse('malformed', 'The URI in the signed message is not a URL');
  }

  if (!rules.origins.includes(uri.origin) || fields.domain !== uri.host) {
    return refuse('proof_domain', 'The message was signed for another site; sign it again on this portal');
  }
  if (fields.scheme !== undefined && `${fields.scheme}:` !== uri.protocol) {
    return refuse('proof_domain', 'The message was signed for another site; sign it again on this portal');
  }
  if (fields.chainId !== rules.chainId) {
    return refuse(
      'proof_chain',
      `The message was signed for chain ${fields.chainId}; this portal runs on chain ${rules.chainId}`,
    );
  }
  const now = rules.now.getTime();
  if (expirationTime.getTime() <= now) {
    return refuse('proof_expired', 'The signed message has expired; ask your wallet to sign a new one');
  }
  if (issuedAt.getTime() > now + CLOCK_SKEW_MS || (notBefore && notBefore.getTime() > now + CLOCK_SKEW_MS)) {
    return refuse(
      'proof_expired',
      'The signed message is dated in the future; check your device’s clock and sign again',
    );
  }
  const validity = expirationTime.getTime() - issuedAt.getTime();
  if (validity <= 0 || validity > MAX_PROOF_VALIDITY_MS) {
    return refuse(
      'proof_expired',
      'The signed message must expire within 10 minutes of being issued; ask your wallet to sign a new one',
    );
  }
  return {
    ok: true,
    proof: {
      address: getAddress(fields.address),
      domain: fields.domain,
      nonce: fields.nonce,
      issuedAt,
      expirationTime,
    },
  };
}

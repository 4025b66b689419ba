import { createHash, randomUUID } from 'node:crypto';
import type { HonoContext } from '@supabase/lite';
import type { PGlite } from '@electric-sql/pglite';
import type { MiddlewareHandler } from 'hono';
import { isHex, recoverMessageAddress } from 'viem';
import { isAddress } from '../address.ts';
import { tomlSections } from './config-toml.ts';
import { isOneOfKeys } from './http.ts';

// Sign in with Ethereum: `POST /auth/v1/token?grant_type=web3`, as supabase-js's
// `auth.signInWithWeb3({ chain: 'ethereum' })` sends it and hosted Supabase Auth
// answers it (supabase/auth internal/api/web3.go, internal/utilities/siwe). lite
// does not implement the grant yet, so the gateway does, in front of lite's
// routes, and then issues the session through lite's own session machinery (its
// users, identities, sessions and refresh tokens), so refresh and sign-out work
// unchanged. docs/local-stack.md#sign-in-with-ethereum lists where it is stricter
// than hosted: the expiry is always enforced, and a signed message signs in once.

/** An EIP-4361 message, as Supabase Auth's line parser reads it. */
export type SiweMessage = {
  domain: string;
  address: string;
  statement: string | null;
  uri: URL;
  version: string;
  chainId: number | null;
  nonce: string | null;
  issuedAt: Date;
  expirationTime: Date | null;
  notBefore: Date | null;
};

const HEADER = ' wants you to sign in with your Ethereum account:';
// Supabase Auth's domain rule, with loopback IPs added: the local portal is served on 127.0.0.1.
const DOMAIN =
  /^(localhost|127\.0\.0\.1|(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,})(?::\d{1,5})?$/;
/** How far issued-at may be from now, either way (Supabase Auth's maximum validity). */
export const MAX_VALIDITY_MS = 10 * 60 * 1000;

export class Web3GrantError extends Error {
  override name = 'Web3GrantError';
  constructor(
    readonly status: number,
    message: string,
    /** invalid_grant answers in OAuth's shape, the others in the API's. */
    readonly kind:
      'invalid_grant' | 'validation_failed' | 'web3_unsupported_chain' | 'web3_provider_disabled',
  ) {
    super(message);
  }
}

const invalid = (message: string) => new Web3GrantError(400, message, 'validation_failed');
const refused = (message: string) => new Web3GrantError(400, message, 'invalid_grant');

function date(value: string, field: string): Date {
  const parsed = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(parsed.getTime())) {
    throw invalid(`siwe: ${field} is not an RFC 3339 time`);
  }
  return parsed;
}

export function parseSiweMessage(raw: string): SiweMessage {
  const lines = raw.split('\n');
  if (lines.length < 6) throw invalid('siwe: message needs at least 6 lines');
  const first = lines[0] ?? '';
  if (!first.endsWith(HEADER)) throw invalid('siwe: first line of message is not valid');
  const domain = first.slice(0, -HEADER.length);
  if (!DOMAIN.test(domain)) throw invalid('siwe: domain in first line of message is not valid');
  const address = (lines[1] ?? '').trim();
  if (!isAddress(address)) throw invalid('siwe: address in second line of message is not valid');
  if (lines[2] !== '') throw invalid('siwe: third line of message must be empty');
  let index = 3;
  let statement: string | null = null;
  if ((lines[3] ?? '') !== '' && (lines[4] ?? '') === '') {
    statement = lines[3] ?? null;
    index = 5;
  } else if ((lines[3] ?? '') === '') {
    index = 4;
  }
  const fields = new Map<string, string>();
  for (const line of lines.slice(index)) {
    const at = line.indexOf(': ');
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
  }
  const uriText = fields.get('URI');
  if (!uriText) throw invalid('siwe: URI is required');
  let uri: URL;
  try {
    uri = new URL(uriText);
  } catch {
    throw invalid('siwe: URI is not valid');
  }
  const version = fields.get('Version') ?? '';
  if (version !== '1') throw invalid('siwe: Version must be 1');
  const chainText = fields.get('Chain ID');
  const chainId = chainText === undefined ? null : Number(chainText);
  if (chainId !== null && !(Number.isInteger(chainId) && chainId > 0))
    throw invalid('siwe: Chain ID is not valid');
  const issuedText = fields.get('Issued At');
  if (!issuedText) throw invalid('siwe: Issued At is required');
  const issuedAt = date(issuedText, 'Issued At');
  const expiry = fields.get('Expiration Time');
  const notBefore = fields.get('Not Before');
  const message: SiweMessage = {
    domain,
    address,
    statement,
    uri,
    version,
    chainId,
    nonce: fields.get('Nonce') ?? null,
    issuedAt,
    expirationTime: expiry ? date(expiry, 'Expiration Time') : null,
    notBefore: notBefore ? date(notBefore, 'Not Before') : null,
  };
  if (message.expirationTime && message.expirationTime < issuedAt) {
    throw invalid('siwe: Expiration Time is before Issued At');
  }
  return message;
}

/** Whether `[auth.web3.ethereum] enabled = true` in a config.toml (hosted's setting for this grant). */
export function web3EthereumEnabled(toml: string): boolean {
  return tomlSections(toml).get('auth.web3.ethereum')?.get('enabled') === 'true';
}

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

export type Web3GrantOptions = {
  /** The site URL and the additional redirect URLs: the pages a message may be signed for. */
  allowedUrls: readonly string[];
  /** The chain the portal is built for; a message for another chain is refused (hosted does not check). */
  chainId: number | null;
  now?: () => Date;
};

/** Every check Supabase Auth makes of a signed message, in its order; returns the parsed message. */
export async function verifyWeb3Grant(
  body: { chain?: unknown; message?: unknown; signature?: unknown },
  options: Web3GrantOptions,
): Promise<SiweMessage> {
  if (body.chain !== 'ethereum') throw new Web3GrantError(400, 'Unsupported chain', 'web3_unsupported_chain');
  const raw = typeof body.message === 'string' ? body.message : '';
  if (raw.length < 64) throw invalid('message is too short');
  if (raw.length > 20 * 1024) throw invalid('message must not exceed 20KB');
  const signature = typeof body.signature === 'string' ? body.signature : '';
  const hex = signature.startsWith('0x') ? signature : `0x${signature}`;
  if (!isHex(hex) || hex.length !== 132) {
    throw invalid('signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string');
  }
  const message = parseSiweMessage(raw);
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message: raw, signature: hex });
  } catch {
    throw refused('Signature does not match address in message');
  }
  if (signer.toLowerCase() !== message.address.toLowerCase()) {
    throw refused('Signature does not match address in message');
  }
  const { uri } = message;
  if (uri.protocol !== 'https:' && !isLoopback(uri.hostname)) {
    throw refused('Signed Ethereum message is using URI which does not use HTTPS');
  }
  const allowed = options.allowedUrls.some((url) => {
    const site = new URL(url);
    return site.protocol === uri.protocol && site.host === uri.host;
  });
  if (!allowed) {
    throw refused(
      'Signed Ethereum message is using URI which is not allowed on this server, message was signed for another app',
    );
  }
  if (uri.host !== message.domain) {
    throw refused(
      'Signed Ethereum message is using a Domain that does not match the one in URI which is not allowed on this server',
    );
  }
  if (options.chainId !== null && message.chainId !== null && message.chainId !== options.chainId) {
    throw refused(
      `Signed Ethereum message is for chain ${message.chainId}, this server accepts ${options.chainId}`,
    );
  }
  const now = (options.now ?? (() => new Date()))();
  if (message.notBefore && now < message.notBefore)
    throw refused('Signed Ethereum message becomes valid in the future');
  if (message.expirationTime && now > message.expirationTime)
    throw refused('Signed Ethereum message is expired');
  if (now.getTime() > message.issuedAt.getTime() + MAX_VALIDITY_MS) {
    throw refused('Ethereum message was issued too long ago');
  }
  if (now.getTime() < message.issuedAt.getTime() - MAX_VALIDITY_MS) {
    throw refused('Ethereum message was issued too far in the future');
  }
  return message;
}

/** lite's session issuer: a method of its AuthService that TypeScript calls private. */
type SessionIssuer = {
  createSessionForUser(
    user: unknown,
    identities: unknown[],
    kind: string,
    options?: Record<string, unknown>,
  ): Promise<Record<string, unknown> & { session_id?: string; user_id?: string }>;
};

function issuerOf(service: unknown): SessionIssuer {
  const issuer = service as Partial<SessionIssuer>;
  if (typeof issuer.createSessionForUser !== 'function') {
    throw new Error(
      '@supabase/lite no longer has AuthService.createSessionForUser: update stack/gateway/web3-grant.ts',
    );
  }
  return issuer as SessionIssuer;
}

function errorResponse(error: Web3GrantError): Response {
  const body =
    error.kind === 'invalid_grant'
      ? { error: 'invalid_grant', error_description: error.message }
      : { code: error.status, error_code: error.kind, msg: error.message };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json', 'x-sb-error-code': error.kind },
  });
}

/**
 * The lite server middleware that answers the grant. It runs before lite's own apikey check, so it
 * checks the key itself. A signed message signs in once: its hash is kept until it could no longer
 * pass the issued-at check.
 */
export function web3GrantMiddleware(
  options: Web3GrantOptions & { pg: PGlite; apiKeys: readonly string[]; enabled: boolean },
): MiddlewareHandler<HonoContext> {
  return async (c, next) => {
    if (c.req.method !== 'POST' || c.req.path !== '/auth/v1/token' || c.req.query('grant_type') !== 'web3') {
      return next();
    }
    if (!isOneOfKeys(c.req.header('apikey'), options.apiKeys)) {
      return c.json({ code: 401, error_code: 'no_authorization', msg: 'Invalid API key' }, 401);
    }
    if (!options.enabled) {
      return errorResponse(new Web3GrantError(422, 'Web3 provider is disabled', 'web3_provider_disabled'));
    }
    let body: { chain?: unknown; message?: unknown; signature?: unknown };
    try {
      body = await c.req.json();
    } catch {
      return c.json({ code: 400, error_code: 'bad_json', msg: 'Could not parse request body as JSON' }, 400);
    }
    let message: SiweMessage;
    try {
      message = await verifyWeb3Grant(body, options);
    } catch (error) {
      if (error instanceof Web3GrantError) return errorResponse(error);
      throw error;
    }
    const digest = createHash('sha256').update(String(body.message)).digest('hex');
    await options.pg.query('delete from _gateway.web3_used_messages where usable_until < now()');
    const used = await options.pg.query(
      `insert into _gateway.web3_used_messages (digest, usable_until) values ($1, $2)
       on conflict (digest) do nothing returning digest`,
      [digest, new Date(message.issuedAt.getTime() + MAX_VALIDITY_MS).toISOString()],
    );
    if (used.rows.length === 0) {
      return errorResponse(refused('This signed message has already been used to sign in'));
    }

    // The identity Supabase Auth makes: provider web3, id web3:ethereum:<address as signed>.
    const providerId = `web3:ethereum:${message.address}`;
    const identityData = {
      sub: providerId,
      custom_claims: {
        address: message.address,
        chain: 'ethereum',
        network: message.chainId === null ? '' : String(message.chainId),
        domain: message.domain,
        statement: message.statement,
      },
      email_verified: false,
      phone_verified: false,
    };
    const auth = c.var.authService;
    const issuer = issuerOf(auth);
    const session = await auth.repo.transaction(async (trx) => {
      // lite's own pattern for a transaction: the service's repository is the transaction's meanwhile.
      const outer = auth.repo;
      auth.repo = trx;
      try {
        const existing = await trx.findIdentityByProviderAndId('web3', providerId);
        let userId: string;
        if (existing) {
          userId = existing.user_id;
          await trx.updateIdentity(existing.id, {
            identity_data: identityData,
            last_sign_in_at: new Date().toISOString(),
          });
        } else {
          userId = randomUUID();
          await trx.createUser({
            id: userId,
            email: null,
            raw_app_meta_data: { provider: 'web3', providers: ['web3'] },
            raw_user_meta_data: identityData,
          });
          await trx.createIdentity({
            id: randomUUID(),
            provider: 'web3',
            provider_id: providerId,
            user_id: userId,
            identity_data: identityData,
          });
        }
        const row = await trx.findUserById(userId);
        if (!row) throw new Error(`web3 grant: user ${userId} vanished inside its transaction`);
        const user = trx.parseUserJson(row);
        return await issuer.createSessionForUser(user, await trx.findIdentitiesByUserId(userId), 'user', {
          provider: 'web3',
        });
      } finally {
        auth.repo = outer;
      }
    });
    if (session.session_id) c.header('Sb-Auth-Session-Id', session.session_id);
    if (session.user_id) c.header('Sb-Auth-User-Id', session.user_id);
    return c.json(session, 200);
  };
}

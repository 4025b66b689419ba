import { errors, jwtVerify, type JWTPayload } from 'jose';
import { isOneOfKeys, json } from './http.ts';
import type { StackSecrets } from './secrets.ts';

// Who a request speaks for, worked out the way the hosted API gateway does:
// the apikey must be one of the project's keys, and a user JWT in
// Authorization (if any) must be a session token of the project's Auth.
//
// What a session token must be. Supabase Auth issues every access token HS256-signed with the
// project's JWT secret (on this stack), with `exp` and with `aud` 'authenticated' (its JWT_AUD).
// The hosted services check differently: Realtime requires `exp` (and `role`) on every join
// ("Fields `role` and `exp` are required in JWT"); PostgREST checks `aud` when its jwt-aud is
// configured, and PostgREST, Storage and the functions' verify_jwt check `exp` only when a token
// has one. All of them take only the algorithms of the project's keys, never `alg: none`. Every
// endpoint here takes the strictest of these at once: HS256 with the secret, `exp` required and
// in the future, `aud` required and 'authenticated', a role the API knows. A token without `aud`
// is refused too (where a configured PostgREST lets it pass): the only tokens this stack issues
// are Auth's sessions, which all carry it, and the same secret signs tokens that are no sessions
// (lite's signed Storage URLs), which must never pass for one.

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export type Claims = {
  role: ApiRole;
  sub: string | null;
  email: string | null;
  raw: Record<string, unknown>;
};

export class ClaimsError extends Error {
  override name = 'ClaimsError';
}

/** The audience Supabase Auth writes in every session token. */
export const SESSION_AUDIENCE = 'authenticated';

/** A session token's claims, or a ClaimsError saying why it is none. */
export type SessionVerifier = (token: string) => Promise<JWTPayload & { role: ApiRole }>;

export function createSessionVerifier(jwtSecret: string): SessionVerifier {
  const key = new TextEncoder().encode(jwtSecret);
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        audience: SESSION_AUDIENCE,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw new ClaimsError(refusalOf(error));
    }
    const role = payload['role'];
    if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') {
      throw new ClaimsError('JWT has an unknown role');
    }
    return { ...payload, role };
  };
}

function refusalOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'JWT expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'exp' && error.reason === 'missing') return 'JWT has no expiry (exp)';
    if (error.claim === 'aud') return `JWT is not for the '${SESSION_AUDIENCE}' audience`;
  }
  return 'Invalid JWT';
}

export type ClaimsResolver = (apikey: string | null, bearer: string | null) => Promise<Claims>;

export function createClaimsResolver(secrets: StackSecrets): ClaimsResolver {
  const verify = createSessionVerifier(secrets.jwtSecret);

  const roleOfKey = (apikey: string | null): ApiRole => {
    const anon = isOneOfKeys(apikey, [secrets.anonKey]);
    const service = isOneOfKeys(apikey, [secrets.serviceRoleKey]);
    if (anon) return 'anon';
    if (service) return 'service_role';
    throw new ClaimsError(apikey ? 'Invalid API key' : 'No API key found in request');
  };

  return async (apikey, bearer) => {
    const keyRole = roleOfKey(apikey);
    if (!bearer || bearer === apikey) {
      return { role: keyRole, sub: null, email: null, raw: { role: keyRole } };
    }
    const payload = await verify(bearer);
    const email = payload['email'];
    return {
      role: payload.role,
      sub: typeof payload.sub === 'string' ? payload.sub : null,
      email: typeof email === 'string' ? email : null,
      raw: payload as Record<string, unknown>,
    };
  };
}

/**
 * The check in front of lite's REST. lite takes a bearer token that is no JWT, or an unsigned one,
 * for no token at all (the anon role), and accepts one without `exp` or for another audience;
 * PostgREST refuses all of them. So the gateway holds REST's bearer token to what a session token
 * must be, unless it is one of the project's keys (supabase-js sends the key as the bearer while
 * nobody is signed in), and refuses as PostgREST does: 401, PGRST301 for a token that is no valid
 * JWT, PGRST303 for one whose claims do not pass. null lets the request through.
 */
export function createRestTokenCheck(secrets: StackSecrets): (request: Request) => Promise<Response | null> {
  const verify = createSessionVerifier(secrets.jwtSecret);
  return async (request) => {
    const bearer = bearerOf(request.headers.get('authorization'));
    if (bearer === null || isOneOfKeys(bearer, [secrets.anonKey, secrets.serviceRoleKey])) return null;
    try {
      await verify(bearer);
      return null;
    } catch (error) {
      const message = error instanceof ClaimsError ? error.message : 'Invalid JWT';
      const code = message === 'Invalid JWT' ? 'PGRST301' : 'PGRST303';
      return json(401, { code, details: null, hint: null, message });
    }
  };
}

export function bearerOf(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

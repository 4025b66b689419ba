import { errors, jwtVerify } from 'jose';
import type { StackSecrets } from './secrets.ts';

// Who a request speaks for, worked out the way the hosted API gateway does:
// the apikey must be one of the project's keys, and a user JWT in
// Authorization (if any) must be signed by the project.
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

export type ClaimsResolver = (apikey: string | null, bearer: string | null) => Promise<Claims>;

export function createClaimsResolver(secrets: StackSecrets): ClaimsResolver {
  const key = new TextEncoder().encode(secrets.jwtSecret);

  const roleOfKey = (apikey: string | null): ApiRole => {
    if (apikey === secrets.anonKey) return 'anon';
    if (apikey === secrets.serviceRoleKey) return 'service_role';
    throw new ClaimsError(apikey ? 'Invalid API key' : 'No API key found in request');
  };

  return async (apikey, bearer) => {
    const keyRole = roleOfKey(apikey);
    if (!bearer || bearer === apikey) {
      return { role: keyRole, sub: null, email: null, raw: { role: keyRole } };
    }
    try {
      const { payload } = await jwtVerify(bearer, key, { algorithms: ['HS256'] });
      const role = payload['role'];
      if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') {
        throw new ClaimsError('JWT has an unknown role');
      }
      const email = payload['email'];
      return {
        role,
        sub: typeof payload.sub === 'string' ? payload.sub : null,
        email: typeof email === 'string' ? email : null,
        raw: payload as Record<string, unknown>,
      };
    } catch (error) {
      if (error instanceof ClaimsError) throw error;
      if (error instanceof errors.JWTExpired) throw new ClaimsError('JWT expired');
      throw new ClaimsError('Invalid JWT');
    }
  };
}

export function bearerOf(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

import { SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { createClaimsResolver, createRestTokenCheck } from '../../stack/gateway/claims.ts';
import { createFunctionsHandler } from '../../stack/gateway/functions.ts';
import type { StackSecrets } from '../../stack/gateway/secrets.ts';

// What the gateway takes as a user's session token, checked in one place (claims.ts) for Storage,
// Realtime, REST and the functions' verify_jwt: HS256 with the project's secret, `exp` required
// and in the future, `aud` 'authenticated', a known role.

const SECRETS: StackSecrets = {
  jwtSecret: 'a-local-jwt-secret-of-at-least-thirty-two-characters',
  anonKey: 'sb_publishable_local',
  serviceRoleKey: 'sb_secret_local',
  webhookSecret: 'webhook',
  tatumApiKey: 'tatum',
  emailUnsubscribeSecret: 'unsubscribe',
};
const now = () => Math.floor(Date.now() / 1000);
const SESSION: JWTPayload = {
  sub: '7d0c2f1e-0000-4000-8000-000000000001',
  aud: 'authenticated',
  role: 'authenticated',
  email: 'someone@example.com',
  session_id: '7d0c2f1e-0000-4000-8000-000000000002',
  iat: now(),
  exp: now() + 3600,
};

function signed(claims: JWTPayload, secret = SECRETS.jwtSecret, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const { exp: _exp, ...withoutExp } = SESSION;

const REFUSED: { label: string; token: () => Promise<string>; why: RegExp }[] = [
  { label: 'a token without exp', token: () => signed(withoutExp), why: /no expiry/ },
  { label: 'an expired token', token: () => signed({ ...SESSION, exp: now() - 60 }), why: /expired/ },
  {
    label: 'a token for another audience',
    token: () => signed({ ...SESSION, aud: 'other' }),
    why: /audience/,
  },
  { label: 'a token without aud', token: () => signed({ ...SESSION, aud: undefined }), why: /audience/ },
  {
    label: 'an unsigned token (alg: none)',
    token: async () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(SESSION)}.`,
    why: /Invalid JWT/,
  },
  {
    label: 'a token signed with another secret',
    token: () => signed(SESSION, 'x'.repeat(40)),
    why: /Invalid JWT/,
  },
  { label: 'an HS512 token', token: () => signed(SESSION, SECRETS.jwtSecret, 'HS512'), why: /Invalid JWT/ },
  {
    label: 'a token of a role the API does not know',
    token: () => signed({ ...SESSION, role: 'postgres' }),
    why: /role/,
  },
  // lite signs its Storage URLs with the same secret; such a token is no session.
  {
    label: 'a signed Storage URL token',
    token: () => signed({ sub: 'avatars/a.png', bucket: 'avatars', iat: now(), exp: now() + 60 }),
    why: /audience/,
  },
];

describe('Storage and Realtime (the claims resolver)', () => {
  const resolve = createClaimsResolver(SECRETS);

  it('takes the session token Auth issues as its user', async () => {
    const claims = await resolve(SECRETS.anonKey, await signed(SESSION));
    expect(claims).toMatchObject({ role: 'authenticated', sub: SESSION.sub, email: SESSION.email });
  });

  for (const { label, token, why } of REFUSED) {
    it(`refuses ${label}`, async () => {
      await expect(resolve(SECRETS.anonKey, await token())).rejects.toThrow(why);
    });
  }

  it('takes only the project’s keys as apikey', async () => {
    await expect(resolve(SECRETS.anonKey, null)).resolves.toMatchObject({ role: 'anon' });
    await expect(resolve(SECRETS.serviceRoleKey, null)).resolves.toMatchObject({ role: 'service_role' });
    await expect(resolve(`${SECRETS.anonKey}x`, null)).rejects.toThrow('Invalid API key');
    await expect(resolve(SECRETS.anonKey.slice(0, -1), null)).rejects.toThrow('Invalid API key');
    await expect(resolve('', null)).rejects.toThrow('No API key found in request');
  });
});

describe('a function deployed with verify_jwt', () => {
  const handle = createFunctionsHandler(
    { 'link-wallet': async () => new Response('reached the function') },
    { jwtSecret: SECRETS.jwtSecret, verifies: () => true },
  );
  const call = (token: string) =>
    handle(
      new Request('http://gateway/functions/v1/link-wallet', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: '{}',
      }),
    );

  it('lets the session token Auth issues through', async () => {
    const response = await call(await signed(SESSION));
    expect(await response.text()).toBe('reached the function');
  });

  for (const { label, token, why } of REFUSED) {
    it(`refuses ${label} with 401`, async () => {
      const response = await call(await token());
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, message: expect.stringMatching(why) });
    });
  }
});

describe('REST (the check in front of lite)', () => {
  const check = createRestTokenCheck(SECRETS);
  const request = (authorization?: string) =>
    new Request('http://gateway/rest/v1/profiles', {
      headers: { apikey: SECRETS.anonKey, ...(authorization ? { authorization } : {}) },
    });

  it('lets a session token, a project key or no token at all through to lite', async () => {
    expect(await check(request(`Bearer ${await signed(SESSION)}`))).toBeNull();
    expect(await check(request(`Bearer ${SECRETS.anonKey}`))).toBeNull();
    expect(await check(request(`Bearer ${SECRETS.serviceRoleKey}`))).toBeNull();
    expect(await check(request())).toBeNull();
  });

  for (const { label, token, why } of REFUSED) {
    it(`refuses ${label} as PostgREST does`, async () => {
      const refusal = await check(request(`Bearer ${await token()}`));
      expect(refusal?.status).toBe(401);
      expect(await refusal?.json()).toEqual({
        code: expect.stringMatching(/^PGRST30[13]$/),
        details: null,
        hint: null,
        message: expect.stringMatching(why),
      });
    });
  }

  it('refuses a bearer that is no JWT, which lite would take for no token', async () => {
    const refusal = await check(request('Bearer not-a-jwt'));
    expect(refusal?.status).toBe(401);
    expect(await refusal?.json()).toMatchObject({ code: 'PGRST301', message: 'Invalid JWT' });
  });
});

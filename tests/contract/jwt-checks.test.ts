import { createClient } from '@supabase/supabase-js';
import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import type { Gateway } from '../../stack/gateway/index.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/stack/users.ts';
import { subscribed } from '../support/realtime.ts';

// Every endpoint that takes a user's bearer token holds it to what Supabase Auth issues: HS256
// signed with the project's secret, an expiry, and the 'authenticated' audience. A token signed
// with the secret but without exp, one for another audience, and an unsigned one (alg: none) are
// refused by REST, Storage, a Realtime join and a function deployed with verify_jwt, which all
// take the session token Auth issued. This file starts a gateway of its own: the tokens are signed
// with its JWT secret, which the shared one does not hand out.

const chain = inject('chain');

let gateway: Gateway;
let user: TestUser;
const NOTE = 'A note only its owner reads';
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startOwnGateway('jwt-checks', { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
  user = await signedInUser(gateway, 'jwt-checks');
  const seeded = await serviceClient(gateway)
    .from('user_notifications')
    .insert({ user_id: user.id, title: NOTE });
  if (seeded.error) throw new Error(`seeding the note failed: ${seeded.error.message}`);
}, 60_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

afterAll(async () => {
  await gateway?.close();
});

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signed(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(gateway.jwtSecret));
}

/** The user's own session claims, changed one way each: what a forger or a careless script mints. */
const REFUSED: { label: string; token: () => Promise<string> }[] = [
  {
    label: 'a token without exp',
    token: () => {
      const { exp: _exp, ...claims } = decodeJwt(user.accessToken);
      return signed(claims);
    },
  },
  {
    label: "a token for another audience (aud 'other')",
    token: () => signed({ ...decodeJwt(user.accessToken), aud: 'other' }),
  },
  {
    label: 'an unsigned token (alg: none)',
    token: async () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(decodeJwt(user.accessToken))}.`,
  },
];

type Surface = {
  name: string;
  accepts(token: string): Promise<void>;
  refuses(token: string): Promise<void>;
};

const headers = (token: string) => ({ apikey: gateway.anonKey, authorization: `Bearer ${token}` });

function restRead(token: string, prefix = '/rest/v1'): Promise<Response> {
  return fetch(`${gateway.url}${prefix}/user_notifications?select=title`, { headers: headers(token) });
}

function avatarUpload(token: string): Promise<Response> {
  return fetch(`${gateway.url}/storage/v1/object/avatars/${user.id}-jwt.png`, {
    method: 'POST',
    headers: { ...headers(token), 'content-type': 'image/png', 'x-upsert': 'true' },
    body: IMAGES.png,
  });
}

function linkWallet(token: string): Promise<Response> {
  return fetch(`${gateway.url}/functions/v1/link-wallet`, {
    method: 'POST',
    headers: { ...headers(token), 'content-type': 'application/json' },
    body: '{}',
  });
}

/** A supabase-js channel on the user's notifications, joined with the token as the portal joins. */
async function notificationsChannel(token: string) {
  const client = createClient<Database>(gateway.url, gateway.anonKey, {
    accessToken: async () => token,
    realtime: { transport: WebSocket as never },
  });
  clients.push(client);
  // The client fetches its token asynchronously; the join must carry it, not race it.
  await client.realtime.setAuth();
  return client
    .channel(`jwt-checks-${user.id}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${user.id}` },
      () => {},
    );
}

const SURFACES: Surface[] = [
  {
    name: 'REST (/rest/v1)',
    accepts: async (token) => {
      const response = await restRead(token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ title: NOTE }]);
    },
    refuses: async (token) => {
      const response = await restRead(token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: expect.stringMatching(/^PGRST30/) });
    },
  },
  {
    // The router decodes the path, so an escaped letter must not walk around the check.
    name: 'REST at a percent-encoded path (/%72est/v1)',
    accepts: async (token) => {
      const response = await restRead(token, '/%72est/v1');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ title: NOTE }]);
    },
    refuses: async (token) => {
      const response = await restRead(token, '/%72est/v1');
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: expect.stringMatching(/^PGRST30/) });
    },
  },
  {
    name: 'Storage (an avatar upload)',
    accepts: async (token) => {
      const response = await avatarUpload(token);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ Key: `avatars/${user.id}-jwt.png` });
    },
    refuses: async (token) => {
      const response = await avatarUpload(token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ statusCode: '401', error: 'Unauthorized' });
    },
  },
  {
    name: 'a Realtime join',
    accepts: async (token) => {
      await expect(subscribed(await notificationsChannel(token))).resolves.toBeDefined();
    },
    refuses: async (token) => {
      await expect(subscribed(await notificationsChannel(token))).rejects.toThrow(/CHANNEL_ERROR/);
    },
  },
  {
    name: 'a verify_jwt function (link-wallet)',
    accepts: async (token) => {
      // The function's own answer to an empty body: the token got it there, and it found the user.
      const response = await linkWallet(token);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'malformed' });
    },
    refuses: async (token) => {
      const response = await linkWallet(token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, message: expect.any(String) });
    },
  },
];

for (const surface of SURFACES) {
  describe(surface.name, () => {
    it('accepts the session token Auth issued', async () => {
      await surface.accepts(user.accessToken);
    });

    for (const { label, token } of REFUSED) {
      it(`refuses ${label}`, async () => {
        await surface.refuses(await token());
      });
    }
  });
}

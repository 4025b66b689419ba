import { describe, expect, it } from 'vitest';
import type { Claims } from '../../stack/gateway/claims.ts';
import { expiredMessage, expiresAt, isExpired } from '../../stack/gateway/realtime/expiry.ts';
import { encode, encodeWithPayload, type PhxMessage } from '../../stack/gateway/realtime/protocol.ts';
import { identityKey } from '../../stack/gateway/realtime/visibility.ts';

function claims(raw: Record<string, unknown>): Claims {
  const role = raw['role'] === 'anon' ? 'anon' : 'authenticated';
  return { role, sub: typeof raw['sub'] === 'string' ? raw['sub'] : null, email: null, raw };
}

const session = { sub: 'u-1', role: 'authenticated', aud: 'authenticated', session_id: 's-1' };

describe('who a visibility check is for', () => {
  it('is the same for two tokens of one session, whenever they were issued', () => {
    const first = claims({ ...session, iat: 1_000, exp: 4_600 });
    const refreshed = claims({ exp: 8_200, ...session, iat: 4_600 });
    expect(identityKey(first)).toBe(identityKey(refreshed));
  });

  it('differs for another user, another role or any other claim a policy could read', () => {
    const base = identityKey(claims(session));
    expect(identityKey(claims({ ...session, sub: 'u-2' }))).not.toBe(base);
    expect(identityKey(claims({ ...session, role: 'anon' }))).not.toBe(base);
    expect(identityKey(claims({ ...session, session_id: 's-2' }))).not.toBe(base);
    expect(identityKey(claims({ ...session, app_metadata: { admin: true } }))).not.toBe(base);
  });
});

describe("a channel's token expiry", () => {
  it('reads exp in seconds and expires at that instant', () => {
    const expiry = expiresAt(claims({ ...session, exp: 1_700_000_000 }));
    expect(expiry).toBe(1_700_000_000_000);
    expect(isExpired(expiry, 1_699_999_999_999)).toBe(false);
    expect(isExpired(expiry, 1_700_000_000_000)).toBe(true);
    expect(expiredMessage(1_700_000_000_000, 1_700_000_002_500)).toBe('Token has expired 2 seconds ago');
  });

  it('never expires for the project keys, which carry no exp', () => {
    expect(expiresAt(claims({ role: 'anon' }))).toBeNull();
    expect(isExpired(null)).toBe(false);
  });
});

describe('a change frame serialized once', () => {
  it('is the frame encode would make, in both serializers', () => {
    const payload = {
      ids: [3, 7],
      data: { table: 'user_notifications', record: { id: 'n-1', title: 'é"\\' } },
    };
    const message: PhxMessage = {
      joinRef: null,
      ref: null,
      topic: 'realtime:n',
      event: 'postgres_changes',
      payload,
    };
    for (const vsn of ['1.0.0', '2.0.0'] as const) {
      const { payload: _, ...envelope } = message;
      expect(JSON.parse(encodeWithPayload(vsn, envelope, JSON.stringify(payload)))).toEqual(
        JSON.parse(encode(vsn, message)),
      );
    }
  });
});

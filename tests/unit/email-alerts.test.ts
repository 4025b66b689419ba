import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  createEmailAlertsHandler,
  failureText,
  retryDelayMs,
} from '../../supabase/functions/email-alerts/handler.ts';
import { alertMail, messageIdOf } from '../../supabase/functions/email-alerts/mail.ts';
import {
  makeUnsubscribeToken,
  readUnsubscribeToken,
} from '../../supabase/functions/_shared/unsubscribe-token.ts';

// The pieces of the email alerts that need no stack: the unsubscribe token, the back-off, what a
// failure keeps, and the mail as it is composed. tests/contract/email-alerts.test.ts sends them.

const SECRET = 'a-local-unsubscribe-secret';
const USER = '7d0c2f1e-0000-4000-8000-000000000001';

describe('the unsubscribe token', () => {
  it('names its user and kind to the secret that made it, and to no other', async () => {
    const token = await makeUnsubscribeToken(SECRET, USER, 'bots');
    expect(await readUnsubscribeToken(SECRET, token)).toEqual({ userId: USER, kind: 'bots' });
    expect(await readUnsubscribeToken('another-secret', token)).toBeNull();
  });

  it('refuses a token whose payload or signature was changed, or that is no token at all', async () => {
    const token = await makeUnsubscribeToken(SECRET, USER, 'transfers');
    const [payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ u: USER, k: 'bots', v: 1 })).toString('base64url');
    for (const forged of [
      `${other}.${signature}`,
      // The first character: the last one's low bits are padding, which decoding ignores.
      `${payload}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`,
      `${payload}.`,
      `${payload}.${signature}.x`,
      '',
      'x'.repeat(600),
      42,
      null,
    ]) {
      expect(await readUnsubscribeToken(SECRET, forged)).toBeNull();
    }
  });
});

describe('the back-off', () => {
  it('waits 30 s after the first failure, doubling, at most an hour', () => {
    expect([0, 1, 2, 3].map((attempts) => retryDelayMs(attempts))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(retryDelayMs(50)).toBe(60 * 60 * 1000);
    expect(retryDelayMs(2, 200)).toBe(800);
  });

  it('keeps one line of a failure, with no password in it', () => {
    const error = new Error('Invalid login: 535 bad credentials for hunter2\n    at smtp');
    expect(failureText(error, ['hunter2'])).toBe('Error: Invalid login: 535 bad credentials for [redacted]');
  });
});

describe('the drain’s settings', () => {
  const handlerWith = (sendDeadlineMs: number) => () =>
    createEmailAlertsHandler({
      supabase: {} as SupabaseClient,
      mailer: { send: async () => {} },
      from: { address: 'no-reply@example.com', name: 'DDEX Token Portal' },
      siteUrl: 'https://portal.example.com',
      supabaseUrl: 'https://ref.supabase.co',
      unsubscribeSecret: SECRET,
      callerKeys: ['service-role-key'],
      sendDeadlineMs,
    });

  it('refuses a send deadline that leaves a claim’s lease (2 min) no time to finish', () => {
    expect(handlerWith(60_000)).not.toThrow();
    for (const deadline of [120_000, 90_000, 0, Number.NaN]) {
      expect(handlerWith(deadline)).toThrow(/deadline/);
    }
  });
});

describe('the mail', () => {
  it('is the notification with the portal and the link, and one-click headers to the function', () => {
    const mail = alertMail(
      {
        id: 'b1',
        kind: 'transfers',
        recipient: 'a@example.com',
        subject: 'ETH Received',
        body: 'You received 1 ETH.',
      },
      'p.s',
      {
        from: { address: 'no-reply@example.com', name: 'DDEX Token Portal' },
        siteUrl: 'https://portal.example.com/,https://other.example.com',
        supabaseUrl: 'https://ref.supabase.co/',
      },
    );
    expect(mail).toMatchObject({
      to: 'a@example.com',
      subject: 'ETH Received',
      messageId: '<email-alert.b1@portal.example.com>',
    });
    expect(mail.text).toBe(
      'You received 1 ETH.\n\n--\nDDEX Token Portal: https://portal.example.com\n' +
        'You get this email because you turned on email for incoming transfers. ' +
        'To turn these emails off, open: https://portal.example.com/?unsubscribe=p.s\n',
    );
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://ref.supabase.co/functions/v1/email-unsubscribe?token=p.s>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(messageIdOf('b1', 'not a url')).toBe('<email-alert.b1@localhost>');
  });
});

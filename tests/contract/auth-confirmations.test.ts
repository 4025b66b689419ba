import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import { anonClient, PASSWORD, uniqueEmail } from '../support/stack/users.ts';

// The other sign-up outcome (docs/product.md#session): with confirmations on, sign-up
// returns a user but no session (the portal's 'Confirm Your Email' state)
// until the emailed link is followed.
let gateway: Gateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-confirm-'));
  gateway = await startGateway({ port: 0, dataDir, emailConfirmations: true, quietEmail: true });
});

afterAll(async () => {
  await gateway.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function confirmationLink(email: string): URL {
  const message = gateway.mailbox?.messages.get(email)?.at(-1);
  const link = /https?:\/\/\S+verify\S+/.exec(message?.text ?? message?.html ?? '')?.[0];
  if (!link) throw new Error(`no confirmation link was mailed to ${email}`);
  return new URL(link.replace(/&amp;/g, '&').replace(/["'<>].*$/, ''));
}

describe('auth with confirmations on', () => {
  it('signs up without a session and an unconfirmed email, and mails a confirmation link', async () => {
    const client = anonClient(gateway);
    const email = uniqueEmail('confirm');
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'http://127.0.0.1:5173' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at ?? null).toBeNull();
    expect(confirmationLink(email).searchParams.get('type')).toBe('signup');
  });

  it('refuses a password login until the email is confirmed, then allows it', async () => {
    const client = anonClient(gateway);
    const email = uniqueEmail('unconfirmed');
    await client.auth.signUp({ email, password: PASSWORD });

    const early = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.data.session).toBeNull();
    expect(early.error?.code).toBe('email_not_confirmed');

    const link = confirmationLink(email);
    const verified = await client.auth.verifyOtp({
      token_hash: link.searchParams.get('token') ?? '',
      type: 'signup',
    });
    expect(verified.error).toBeNull();

    const later = await anonClient(gateway).auth.signInWithPassword({ email, password: PASSWORD });
    expect(later.error).toBeNull();
    expect(later.data.user?.email_confirmed_at).toEqual(expect.any(String));
  });
});

import { FunctionsHttpError } from '@supabase/supabase-js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { anonClient, serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';

// process-payments as Tatum and supabase-js call it, and how the REST API
// answers malformed queries: a clear 4xx error and no change to the data.
// (tests/contract/process-payments.test.ts covers what the function records.)

const stack = inject('gateway');

const hex = (length: number, digit = 'a'): string => digit.repeat(length);

const VALID_EVENT = {
  address: `0x${hex(40, 'a')}`,
  amount: '1.5',
  asset: 'ETH',
  blockNumber: 12,
  counterAddress: `0x${hex(40, 'b')}`,
  txId: `0x${hex(64, 'c')}`,
  type: 'native',
  chain: 'ethereum-sepolia',
  subscriptionType: 'ADDRESS_EVENT',
};

type ErrorBody = { error: string; message: string; problems?: string[] };

async function expectHttpError(error: unknown, status: number): Promise<ErrorBody> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const context: unknown = (error as FunctionsHttpError).context;
  expect(context).toBeInstanceOf(Response);
  const response = context as Response;
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as ErrorBody;
}

/** Invokes process-payments with the JSON text and the x-payload-hash Tatum would send for it. */
async function invokeSigned<T>(body: unknown) {
  const text = JSON.stringify(body);
  return anonClient(stack).functions.invoke<T>('process-payments', {
    body: text,
    headers: {
      'content-type': 'application/json',
      'x-payload-hash': await signPayload(stack.webhookSecret, text),
    },
  });
}

describe('process-payments', () => {
  it('accepts a valid, signed Tatum address event', async () => {
    // No profile holds this address, so nothing is recorded.
    const { data, error } = await invokeSigned<{ received: boolean; recorded: number }>(VALID_EVENT);
    expect(error).toBeNull();
    expect(data).toEqual({ received: true, recorded: 0 });
  });

  it('refuses a valid but unsigned event with 401', async () => {
    const { data, error } = await anonClient(stack).functions.invoke('process-payments', {
      body: VALID_EVENT,
    });
    expect(data).toBeNull();
    const payload = await expectHttpError(error, 401);
    expect(payload.error).toBe('Invalid signature');
  });

  it('refuses a signed body that is not JSON with 400', async () => {
    const body = 'this is not json';
    const response = await fetch(`${stack.url}/functions/v1/process-payments`, {
      method: 'POST',
      headers: {
        apikey: stack.anonKey,
        'content-type': 'text/plain',
        'x-payload-hash': await signPayload(stack.webhookSecret, body),
      },
      body,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: 'Malformed body',
      message: 'The request body is not valid JSON',
    });
  });

  const withoutTxId = Object.fromEntries(Object.entries(VALID_EVENT).filter(([key]) => key !== 'txId'));
  it.each([
    { what: 'a JSON array', body: [VALID_EVENT], problem: 'body must be a JSON object' },
    { what: 'an event without txId', body: withoutTxId, problem: 'txId must be' },
    { what: 'a bad address', body: { ...VALID_EVENT, address: '0x1234' }, problem: 'address must be' },
    {
      what: 'a negative blockNumber',
      body: { ...VALID_EVENT, blockNumber: -1 },
      problem: 'blockNumber must be a non-negative integer',
    },
  ])('refuses $what, signed, with 400 naming the problem', async ({ body, problem }) => {
    const { data, error } = await invokeSigned(body);
    expect(data).toBeNull();
    const payload = await expectHttpError(error, 400);
    expect(payload).toMatchObject({ error: 'Malformed body', message: 'The address event is not valid' });
    expect(payload.problems).toHaveLength(1);
    expect(payload.problems?.[0]).toMatch(new RegExp(`^${problem}`));
  });

  it('refuses GET with 405', async () => {
    const { data, error } = await anonClient(stack).functions.invoke('process-payments', { method: 'GET' });
    expect(data).toBeNull();
    const payload = await expectHttpError(error, 405);
    expect(payload.message).toMatch(/accepts POST only/);
  });

  it('answers an unknown function name with 404', async () => {
    const { data, error } = await anonClient(stack).functions.invoke('no-such-function', {
      body: VALID_EVENT,
    });
    expect(data).toBeNull();
    const payload = await expectHttpError(error, 404);
    expect(payload.message).toMatch(/no-such-function/);
  });
});

describe('REST API preflights', () => {
  // A browser asks before the portal's calls with supabase-js's headers: for a table, and for a
  // function (the profile's email choice, rpc/set_email_alert), as PostgREST answers both.
  it.each(['/rest/v1/profiles?id=eq.1', '/rest/v1/rpc/set_email_alert'])(
    'answers a browser’s preflight for %s',
    async (path) => {
      const response = await fetch(`${stack.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://127.0.0.1:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'apikey,authorization,content-type,x-client-info,prefer',
        },
      });
      expect(response.ok).toBe(true);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
      for (const header of ['apikey', 'authorization', 'content-type', 'x-client-info', 'prefer']) {
        expect(allowed).toContain(header);
      }
    },
  );
});

describe('REST API bad input', () => {
  let user: TestUser;

  beforeAll(async () => {
    user = await signedInUser(stack, 'rest-bad-input');
    const { data, error } = await user.client
      .from('profiles')
      .upsert({ id: user.id, email: user.email })
      .select()
      .single();
    if (error) throw new Error(`profile upsert failed: ${error.message}`);
    expect(data).toMatchObject({ id: user.id, email: user.email, full_name: null });
  });

  async function storedProfile() {
    const { data, error } = await serviceClient(stack)
      .from('profiles')
      .select('*')
      .eq('id', user.id)
      .single();
    expect(error).toBeNull();
    return data;
  }

  it('answers a filter on an unknown column with a 400 error naming the column', async () => {
    const { data, error, status } = await user.client
      .from('profiles')
      .select('id')
      // @ts-expect-error -- the typed client rejects the column; untyped callers reach the server with it.
      .eq('no_such_column', 1);
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '42703', message: expect.stringMatching(/no_such_column/) });
  });

  it('answers an unknown filter operator with a 400 JSON error', async () => {
    const response = await fetch(`${stack.url}/rest/v1/profiles?id=zz.1`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${user.accessToken}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({
      code: 'PGRST100',
      message: expect.stringMatching(/failed to parse filter \(zz\.1\)/),
    });
  });

  it.each([
    {
      what: 'an unknown operator',
      filter: () => user.client.from('profiles').update({ full_name: 'Changed' }).filter('id', 'zz', user.id),
      code: 'PGRST100',
      message: /failed to parse filter/,
    },
    {
      what: 'an unknown column',
      filter: () =>
        user.client
          .from('profiles')
          .update({ full_name: 'Changed' })
          // @ts-expect-error -- the typed client rejects the column; untyped callers reach the server with it.
          .eq('no_such_column', user.id),
      code: '42703',
      message: /no_such_column/,
    },
    {
      what: 'a value that is not a uuid',
      filter: () => user.client.from('profiles').update({ full_name: 'Changed' }).eq('id', 'not-a-uuid'),
      code: '22P02',
      message: /not-a-uuid/,
    },
  ])('changes nothing when an update has $what in its filter', async ({ filter, code, message }) => {
    const before = await storedProfile();
    expect(before).toMatchObject({ id: user.id, email: user.email, full_name: null });

    const { data, error, status } = await filter().select();
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });

    expect(await storedProfile()).toEqual(before);
  });
});

import { describe, expect, it } from 'vitest';
import { dataProviderCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  createTatumService,
  TatumServiceError,
  type FunctionsClient,
} from '../../src/services/tatum/index.ts';

// The browser's data provider is the project's functions: what it sends them, and how it reads
// their answers and refusals. The functions themselves are driven for real in
// tests/contract/tatum-functions.test.ts.

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HOOK = {
  id: 'sub-1',
  address: ADDRESS,
  url: 'http://127.0.0.1:54321/functions/v1/process-payments',
  chain: 'ETH',
  type: 'ADDRESS_EVENT',
};

type Call = { name: string; method: string; body?: Record<string, unknown> };

/** A client whose functions answer from `reply`, as supabase-js does: data, or an error with the Response. */
function clientAnswering(reply: (call: Call) => { status: number; body: unknown; headers?: HeadersInit }) {
  const calls: Call[] = [];
  const client: FunctionsClient = {
    functions: {
      invoke: (name, options) => {
        const call = { name, ...options };
        calls.push(call);
        const { status, body, headers } = reply(call);
        if (status < 300) return Promise.resolve({ data: body, error: null });
        const context = new Response(JSON.stringify(body), { status, headers });
        return Promise.resolve({ data: null, error: { name: 'FunctionsHttpError', context } });
      },
    },
  };
  return { calls, service: createTatumService({ client: () => Promise.resolve(client) }) };
}

async function failure(promise: Promise<unknown>): Promise<TatumServiceError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TatumServiceError)) throw error;
  return error;
}

describe('the Tatum service, through the functions', () => {
  it('asks native-balance for an address and returns its balance', async () => {
    const { calls, service } = clientAnswering(() => ({
      status: 200,
      body: { balance: '1.5', asset: 'ETH' },
    }));
    await expect(service.getNativeBalance(ADDRESS)).resolves.toEqual({ balance: '1.5', asset: 'ETH' });
    expect(calls).toEqual([{ name: 'native-balance', method: 'POST', body: { address: ADDRESS } }]);
  });

  it('creates, lists and deletes through tatum-webhooks, sending no callback URL', async () => {
    const { calls, service } = clientAnswering(({ method }) =>
      method === 'POST'
        ? { status: 200, body: { webhook: HOOK } }
        : method === 'GET'
          ? { status: 200, body: { webhooks: [HOOK] } }
          : { status: 200, body: { deleted: 'sub-1' } },
    );
    await expect(service.createAddressWebhook({ address: ADDRESS })).resolves.toEqual(HOOK);
    await expect(service.listWebhooks()).resolves.toEqual([HOOK]);
    await service.deleteWebhook('sub-1');
    expect(calls).toEqual([
      { name: 'tatum-webhooks', method: 'POST', body: { address: ADDRESS } },
      { name: 'tatum-webhooks', method: 'GET' },
      { name: 'tatum-webhooks/sub-1', method: 'DELETE' },
    ]);
  });

  it('refuses an id that would name another path, before any request', async () => {
    const { calls, service } = clientAnswering(() => ({ status: 200, body: {} }));
    const error = await failure(service.deleteWebhook('../native-balance'));
    expect(error.operation).toBe('deleteWebhook');
    expect(calls).toEqual([]);
  });

  it("reads a refusal's code and detail, and a visitor's 401 as not signed in", async () => {
    const { service } = clientAnswering(({ method }) =>
      method === 'POST'
        ? {
            status: 409,
            body: { code: 'wallet_unverified', message: 'Link this wallet to your profile first' },
          }
        : { status: 401, body: { code: 401, message: 'Invalid JWT' } },
    );
    const refused = await failure(service.createAddressWebhook({ address: ADDRESS }));
    expect(refused).toMatchObject({ operation: 'createAddressWebhook', code: 'wallet_unverified' });
    expect(refused.detail).toBe('Link this wallet to your profile first');
    const visitor = await failure(service.listWebhooks());
    expect(visitor).toMatchObject({ operation: 'listWebhooks', code: 'not_signed_in' });
  });

  it("keeps native-balance's own 401 code: a wrong key is no missing session", async () => {
    const { service } = clientAnswering(() => ({
      status: 401,
      body: { code: 'invalid_api_key', message: 'The request needs the project’s anon key as apikey' },
    }));
    const refused = await failure(service.getNativeBalance(ADDRESS));
    expect(refused).toMatchObject({ operation: 'getNativeBalance', code: 'invalid_api_key' });
  });

  it('reads the per-user webhook limit as its own code', async () => {
    const { service } = clientAnswering(() => ({
      status: 409,
      body: { code: 'webhook_limit', message: 'You have 5 webhooks already', limit: 5 },
    }));
    const refused = await failure(service.createAddressWebhook({ address: ADDRESS }));
    expect(refused).toMatchObject({ operation: 'createAddressWebhook', code: 'webhook_limit' });
    expect(describeError(refused)).toBe(dataProviderCopy.webhookLimit);
  });

  it("passes on what Tatum said when it refused, and the service's words stay the copy's", async () => {
    const { service } = clientAnswering(() => ({
      status: 422,
      body: { code: 'provider_refused', message: 'Tatum refused the request', detail: 'already exists' },
    }));
    const error = await failure(service.createAddressWebhook({ address: ADDRESS }));
    expect(error.detail).toBe('already exists');
    expect(describeError(error)).toBe(dataProviderCopy.createWebhookFailed);
  });

  it('reads how long a rate-limited client must wait', async () => {
    const { service } = clientAnswering(() => ({
      status: 429,
      body: { code: 'rate_limited', message: 'Too many balance requests', retryAfter: 42 },
      headers: { 'retry-after': '42' },
    }));
    const error = await failure(service.getNativeBalance(ADDRESS));
    expect(error).toMatchObject({
      operation: 'getNativeBalance',
      code: 'rate_limited',
      retryAfterSeconds: 42,
    });
  });

  it('reports a client that cannot load as an init failure, and an answer without a balance', async () => {
    const broken = createTatumService({ client: () => Promise.reject(new TypeError('offline')) });
    expect((await failure(broken.getNativeBalance(ADDRESS))).operation).toBe('init');
    const { service } = clientAnswering(() => ({ status: 200, body: { balance: 1 } }));
    expect((await failure(service.getNativeBalance(ADDRESS))).detail).toMatch(/unexpected response/);
  });

  it('reports no answer at all with what the client said', async () => {
    const client: FunctionsClient = {
      functions: {
        invoke: () => Promise.resolve({ data: null, error: new Error('Failed to send a request') }),
      },
    };
    const error = await failure(createTatumService({ client: () => Promise.resolve(client) }).listWebhooks());
    expect(error).toMatchObject({
      operation: 'listWebhooks',
      code: null,
      detail: 'Failed to send a request',
    });
  });
});

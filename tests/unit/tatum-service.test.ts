import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest';
import { dataProviderCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  createTatumService,
  TatumServiceError,
  type TatumService,
  type TatumServiceConfig,
  type TatumServiceDeps,
} from '../../src/services/tatum/index.ts';

// Hosted Tatum's failure shapes, played by msw against the real SDK: every
// request the SDK makes lands on these handlers, and anything else fails the test.

const ORIGIN = 'http://127.0.0.1:59321';
const API = `${ORIGIN}/tatum/v4/`;
const RPC = `${ORIGIN}/rpc`;
const KEY = 't-test-key-0123456789abcdef';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HOOK_URL = 'http://127.0.0.1:54321/functions/v1/process-payments';
const FAST = { retryCount: 2, retryDelayMs: 1 } as const;

const server = setupServer();
const requests: string[] = [];
const services: TatumService[] = [];
const quiet: MockInstance[] = [];
const originalTatumUrl = process.env['TATUM_URL'];

function make(overrides: Partial<TatumServiceConfig> = {}, deps?: TatumServiceDeps): TatumService {
  const service = createTatumService({ apiKey: KEY, apiUrl: API, rpcUrl: RPC, ...FAST, ...overrides }, deps);
  services.push(service);
  return service;
}

async function failure(promise: Promise<unknown>): Promise<TatumServiceError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TatumServiceError)) throw error;
  return error;
}

function rpcReply(reply: (body: { id: unknown; method: unknown; params: unknown }) => object) {
  return http.post(RPC, async ({ request }) => {
    const body = (await request.json()) as { id: unknown; method: unknown; params: unknown };
    return HttpResponse.json({ jsonrpc: '2.0', id: body.id, ...reply(body) });
  });
}

const subscription = (n: number, address: string | null = ADDRESS) => ({
  id: `sub${n}`,
  type: 'ADDRESS_EVENT',
  attr: { chain: 'ETH', ...(address ? { address } : {}), url: `${HOOK_URL}?n=${n}` },
});

const tatumError = (status: number, errorCode: string, message: string, data?: string[]) =>
  HttpResponse.json({ statusCode: status, errorCode, message, ...(data ? { data } : {}) }, { status });

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
  });
});

beforeEach(() => {
  requests.length = 0;
  // The SDK logs through console (and Node warns on leaked listeners); a service must print nothing.
  for (const method of ['log', 'debug', 'info', 'warn', 'error', 'table'] as const) {
    quiet.push(vi.spyOn(console, method));
  }
  quiet.push(vi.spyOn(process, 'emitWarning'));
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.destroy()));
  server.resetHandlers();
  const noisy = quiet.filter((spy) => spy.mock.calls.length > 0).map((spy) => spy.getMockName());
  quiet.splice(0);
  vi.restoreAllMocks();
  expect(noisy).toEqual([]);
});

afterAll(() => {
  server.close();
  if (originalTatumUrl === undefined) delete process.env['TATUM_URL'];
  else process.env['TATUM_URL'] = originalTatumUrl;
});

describe('native balance', () => {
  it('reads eth_getBalance from the configured node, in ETH', async () => {
    let call: unknown;
    server.use(
      rpcReply((body) => {
        call = body;
        return { result: '0x14d1120d7b160000' };
      }),
    );
    await expect(make().getNativeBalance(ADDRESS)).resolves.toEqual({ balance: '1.5', asset: 'ETH' });
    expect(call).toMatchObject({ method: 'eth_getBalance', params: [ADDRESS, 'pending'] });
    expect(requests).toEqual(['POST /rpc']);
  });

  it('gives a wei as a plain decimal, not exponent notation', async () => {
    server.use(rpcReply(() => ({ result: '0x1' })));
    await expect(make().getNativeBalance(ADDRESS)).resolves.toEqual({
      balance: '0.000000000000000001',
      asset: 'ETH',
    });
  });

  it('retries a 5xx from the node and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.post(RPC, () => {
        calls += 1;
        return calls === 1 ? new HttpResponse('Bad Gateway', { status: 502 }) : undefined;
      }),
      rpcReply(() => ({ result: '0xde0b6b3a7640000' })),
    );
    await expect(make().getNativeBalance(ADDRESS)).resolves.toEqual({ balance: '1', asset: 'ETH' });
    expect(requests).toEqual(['POST /rpc', 'POST /rpc']);
  });

  it('gives up after the configured retries of a 5xx', async () => {
    server.use(http.post(RPC, () => new HttpResponse('Service Unavailable', { status: 503 })));
    const error = await failure(make({ retryCount: 3 }).getNativeBalance(ADDRESS));
    expect(describeError(error)).toBe(dataProviderCopy.balanceUnknownError);
    expect(error.operation).toBe('getNativeBalance');
    expect(error.detail).toBe('Service Unavailable');
    // The SDK lists a custom node twice (LoadBalancer.js:55 and 79-100) and fails
    // over to the copy, so a dead node costs two rounds of 1 + retryCount.
    expect(requests).toEqual(Array.from({ length: 2 * (1 + 3) }, () => 'POST /rpc'));
  });

  it.each([
    [
      'a JSON-RPC error object',
      () => rpcReply(() => ({ error: { code: -32602, message: 'invalid argument' } })),
    ],
    ['an HTML page', () => http.post(RPC, () => HttpResponse.html('<html>maintenance</html>'))],
    ['a network error', () => http.post(RPC, () => HttpResponse.error())],
    ['a 4xx', () => http.post(RPC, () => HttpResponse.json({ message: 'rate limited' }, { status: 429 }))],
  ])('turns %s into the balance error', async (_shape, handler) => {
    server.use(handler());
    const error = await failure(make().getNativeBalance(ADDRESS));
    expect(error).toBeInstanceOf(TatumServiceError);
    expect(describeError(error)).toBe(dataProviderCopy.balanceUnknownError);
  });

  it('says what was wrong with the answer', async () => {
    server.use(rpcReply(() => ({ error: { code: -32602, message: 'invalid argument' } })));
    const rpcError = await failure(make().getNativeBalance(ADDRESS));
    // The SDK drops the node's message and reports a balance of NaN.
    expect(rpcError.detail).toBe('unexpected response: balance "NaN" is not a number');

    server.use(http.post(RPC, () => HttpResponse.json({ message: 'rate limited' }, { status: 429 })));
    expect((await failure(make().getNativeBalance(ADDRESS))).detail).toBe('rate limited');
  });
});

describe('creating an address webhook', () => {
  it('posts an ADDRESS_EVENT subscription with the API key and returns it', async () => {
    let sent: { body: unknown; key: string | null; type: string | null } | undefined;
    server.use(
      http.post(`${API}subscription`, async ({ request }) => {
        sent = {
          body: await request.json(),
          key: request.headers.get('x-api-key'),
          type: request.headers.get('content-type'),
        };
        return HttpResponse.json({ id: 'sub1' });
      }),
    );
    await expect(make().createAddressWebhook({ address: ADDRESS, url: HOOK_URL })).resolves.toEqual({
      id: 'sub1',
      address: ADDRESS,
      url: HOOK_URL,
      chain: 'ETH',
      type: 'ADDRESS_EVENT',
    });
    expect(sent).toEqual({
      body: { type: 'ADDRESS_EVENT', attr: { chain: 'ETH', address: ADDRESS, url: HOOK_URL } },
      key: KEY,
      type: 'application/json',
    });
    expect(requests).toEqual(['POST /tatum/v4/subscription']);
  });

  it.each([null, ''])('sends no key header when the key is %j, and asks for testnet', async (apiKey) => {
    let key: string | null = 'unset';
    server.use(
      http.post(`${API}subscription`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return HttpResponse.json({ id: 'sub1' });
      }),
    );
    await make({ apiKey }).createAddressWebhook({ address: ADDRESS, url: HOOK_URL });
    expect(key).toBeNull();
    expect(requests).toEqual(['POST /tatum/v4/subscription?type=testnet']);
  });

  it('adds the trailing slash the SDK needs on the REST base', async () => {
    server.use(http.post(`${API}subscription`, () => HttpResponse.json({ id: 'sub1' })));
    await make({ apiUrl: API.slice(0, -1) }).createAddressWebhook({ address: ADDRESS, url: HOOK_URL });
    expect(requests).toEqual(['POST /tatum/v4/subscription']);
  });

  it("reports Tatum's validation message without retrying", async () => {
    server.use(
      http.post(`${API}subscription`, () =>
        tatumError(
          400,
          'validation.failed',
          'Request validation failed. Please see data for additional info.',
          ['attr.address must be a valid address'],
        ),
      ),
    );
    const error = await failure(make().createAddressWebhook({ address: 'nope', url: HOOK_URL }));
    expect(describeError(error)).toBe(dataProviderCopy.createWebhookFailed);
    expect(error.operation).toBe('createAddressWebhook');
    // The SDK reports `data` instead of `message` and strips the 'attr.' prefix.
    expect(error.detail).toBe('address must be a valid address');
    expect(error.code).toBe('validation.failed');
    expect(requests).toHaveLength(1);
  });

  it('retries a 5xx and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.post(`${API}subscription`, () => {
        calls += 1;
        return calls === 1
          ? tatumError(500, 'internal.error', 'Internal server error')
          : HttpResponse.json({ id: 'sub2' });
      }),
    );
    await expect(make().createAddressWebhook({ address: ADDRESS, url: HOOK_URL })).resolves.toMatchObject({
      id: 'sub2',
    });
    expect(calls).toBe(2);
  });

  it('gives up after the configured retries of a 5xx', async () => {
    server.use(
      http.post(`${API}subscription`, () => tatumError(503, 'service.unavailable', 'Try again later')),
    );
    const error = await failure(make().createAddressWebhook({ address: ADDRESS, url: HOOK_URL }));
    expect(describeError(error)).toBe(dataProviderCopy.createWebhookFailed);
    expect(error.detail).toBe('Try again later');
    expect(error.code).toBe('service.unavailable');
    expect(requests).toHaveLength(1 + FAST.retryCount);
  });

  it.each([
    ['an empty object', () => HttpResponse.json({}), 'unexpected response: no subscription id'],
    ['an HTML page', () => HttpResponse.html('<html>hi</html>'), expect.stringMatching(/JSON/)],
    ['an empty body', () => new HttpResponse(null, { status: 200 }), expect.any(String)],
    ['a network error', () => HttpResponse.error(), 'Failed to fetch'],
  ])('turns %s into the create error', async (_shape, reply, detail) => {
    server.use(http.post(`${API}subscription`, reply));
    const error = await failure(make().createAddressWebhook({ address: ADDRESS, url: HOOK_URL }));
    expect(describeError(error)).toBe(dataProviderCopy.createWebhookFailed);
    expect(error.detail).toEqual(detail);
  });

  it('never repeats the API key, even when the server echoes it', async () => {
    server.use(
      http.post(`${API}subscription`, () =>
        tatumError(403, 'api.key.invalid', `API key ${KEY} is not valid`),
      ),
    );
    const error = await failure(make().createAddressWebhook({ address: ADDRESS, url: HOOK_URL }));
    expect(error.detail).toBe('API key [redacted] is not valid');
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(KEY);
  });
});

describe('listing webhooks', () => {
  it('maps the subscriptions and reads every page', async () => {
    const rows = [...Array.from({ length: 52 }, (_, n) => subscription(n)), subscription(99, null)];
    server.use(
      http.get(`${API}subscription`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        // Tatum's offset counts pages, as the SDK's own page parameters do.
        const pageSize = Number(params.get('pageSize'));
        const start = Number(params.get('offset') ?? '0') * pageSize;
        return HttpResponse.json(rows.slice(start, start + pageSize));
      }),
    );
    const listed = await make().listWebhooks();
    expect(requests).toEqual([
      'GET /tatum/v4/subscription?pageSize=50',
      'GET /tatum/v4/subscription?pageSize=50&offset=1',
    ]);
    // The block-level subscription watches no address, so it is not an address webhook.
    expect(listed).toHaveLength(52);
    expect(listed[51]).toEqual({
      id: 'sub51',
      type: 'ADDRESS_EVENT',
      address: ADDRESS,
      url: `${HOOK_URL}?n=51`,
      chain: 'ETH',
    });
  });

  it('lists nothing when there is nothing', async () => {
    server.use(http.get(`${API}subscription`, () => HttpResponse.json([])));
    await expect(make().listWebhooks()).resolves.toEqual([]);
  });

  it.each([
    ['an object instead of a list', () => HttpResponse.json({})],
    ['a list of strings', () => HttpResponse.json(['sub1'])],
    ['rows without attr', () => HttpResponse.json([{ id: 'sub1', type: 'ADDRESS_EVENT' }])],
    ['an HTML page', () => HttpResponse.html('<html>hi</html>')],
    ['plain text', () => HttpResponse.text('ok')],
    ['a network error', () => HttpResponse.error()],
    ['a 401', () => tatumError(401, 'unauthorized', 'Unauthorized')],
    ['a 5xx every time', () => new HttpResponse('<html>502</html>', { status: 502 })],
  ])('turns %s into the list error', async (_shape, reply) => {
    server.use(http.get(`${API}subscription`, reply));
    const error = await failure(make().listWebhooks());
    expect(describeError(error)).toBe(dataProviderCopy.listWebhooksFailed);
    expect(error.operation).toBe('listWebhooks');
    expect(error.detail).toEqual(expect.any(String));
  });
});

describe('deleting a webhook', () => {
  it('deletes the subscription by id', async () => {
    server.use(http.delete(`${API}subscription/:id`, () => new HttpResponse(null, { status: 204 })));
    await expect(make().deleteWebhook('65a1b2c3d4e5f6a7b8c9d0e1')).resolves.toBeUndefined();
    expect(requests).toEqual(['DELETE /tatum/v4/subscription/65a1b2c3d4e5f6a7b8c9d0e1']);
  });

  it("reports Tatum's not-found answer", async () => {
    server.use(
      http.delete(`${API}subscription/:id`, () =>
        tatumError(404, 'subscription.not.found', 'Subscription not found'),
      ),
    );
    const error = await failure(make().deleteWebhook('gone'));
    expect(describeError(error)).toBe(dataProviderCopy.deleteWebhookFailed);
    expect(error.detail).toBe('Subscription not found');
    expect(error.code).toBe('subscription.not.found');
  });

  it('gives up after the configured retries of a 5xx', async () => {
    server.use(http.delete(`${API}subscription/:id`, () => new HttpResponse(null, { status: 500 })));
    const error = await failure(make().deleteWebhook('sub1'));
    expect(describeError(error)).toBe(dataProviderCopy.deleteWebhookFailed);
    expect(error.detail).toBeNull();
    expect(requests).toHaveLength(1 + FAST.retryCount);
  });

  it('refuses an id that would name another resource, without a request', async () => {
    const error = await failure(make().deleteWebhook('../subscription'));
    expect(describeError(error)).toBe(dataProviderCopy.deleteWebhookFailed);
    expect(requests).toEqual([]);
  });
});

describe('lifecycle', () => {
  const realSdk = () => import('@tatumio/tatum');

  it('fails to start when the SDK cannot load, and starts on the next call', async () => {
    let loads = 0;
    const loadSdk = async () => {
      loads += 1;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module: /assets/tatum.js');
      return realSdk();
    };
    server.use(rpcReply(() => ({ result: '0x0' })));
    const service = make({}, { loadSdk });
    const error = await failure(service.getNativeBalance(ADDRESS));
    expect(describeError(error)).toBe(dataProviderCopy.initFailed);
    expect(error.operation).toBe('init');
    expect(error.detail).toBe('Failed to fetch dynamically imported module: /assets/tatum.js');
    await expect(service.getNativeBalance(ADDRESS)).resolves.toEqual({ balance: '0', asset: 'ETH' });
    await service.getNativeBalance(ADDRESS);
    expect(loads).toBe(2);
  });

  it('starts once for concurrent calls', async () => {
    const loadSdk = vi.fn(realSdk);
    server.use(rpcReply(() => ({ result: '0x0' })));
    const service = make({}, { loadSdk });
    await Promise.all([service.getNativeBalance(ADDRESS), service.getNativeBalance(ADDRESS)]);
    expect(loadSdk).toHaveBeenCalledTimes(1);
  });

  it.each([
    [{ rpcUrl: 'not a url' }, 'rpcUrl must be an absolute http(s) URL'],
    [{ rpcUrl: '' }, 'rpcUrl must be an absolute http(s) URL'],
    [{ apiUrl: 'ftp://127.0.0.1/tatum/v4/' }, 'apiUrl must be an absolute http(s) URL'],
  ])('refuses to start with %j', async (config, detail) => {
    const error = await failure(make(config).listWebhooks());
    expect(describeError(error)).toBe(dataProviderCopy.initFailed);
    expect(error.detail).toBe(detail);
    expect(requests).toEqual([]);
  });

  it('destroys safely before use and twice, and starts again after', async () => {
    const loadSdk = vi.fn(realSdk);
    server.use(rpcReply(() => ({ result: '0x0' })));
    const service = make({}, { loadSdk });
    await service.destroy();
    await service.destroy();
    expect(loadSdk).not.toHaveBeenCalled();

    await service.getNativeBalance(ADDRESS);
    await service.destroy();
    await service.destroy();
    await expect(service.getNativeBalance(ADDRESS)).resolves.toEqual({ balance: '0', asset: 'ETH' });
    expect(loadSdk).toHaveBeenCalledTimes(2);
  });

  it('leaves no process exit listener behind', async () => {
    server.use(rpcReply(() => ({ result: '0x0' })));
    const before = process.listenerCount('exit');
    const service = make();
    await service.getNativeBalance(ADDRESS);
    expect(process.listenerCount('exit')).toBe(before + 1);
    await service.destroy();
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('sends each service to its own REST base', async () => {
    const other = `${ORIGIN}/other/v4/`;
    server.use(
      http.get(`${API}subscription`, () => HttpResponse.json([subscription(1)])),
      http.get(`${other}subscription`, () => HttpResponse.json([subscription(2)])),
    );
    const [mine, theirs] = await Promise.all([make().listWebhooks(), make({ apiUrl: other }).listWebhooks()]);
    expect(mine.map(({ id }) => id)).toEqual(['sub1']);
    expect(theirs.map(({ id }) => id)).toEqual(['sub2']);
  });
});

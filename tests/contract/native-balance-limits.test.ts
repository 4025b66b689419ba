import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Gateway } from '../../stack/gateway/index.ts';
import type { TatumApi } from '../../supabase/functions/_shared/tatum.ts';
import {
  createNativeBalanceHandler,
  type RateLimit,
} from '../../supabase/functions/native-balance/handler.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import { anonClient, serviceClient, signedInUser } from '../support/stack/users.ts';

// Whom native-balance counts, how many it lets through, and where it keeps the count. The limits
// are fixed windows of the database's clock (take_rate_limit); each test's clients are its own, so
// no other caller's count meets them.

const stack = inject('gateway');
const chain = inject('chain');

type Handler = (request: Request) => Promise<Response>;

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
/** An address no other test's client has: a client of its own, as the edge would name it. */
const someClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

/** A balance request as it reaches the function: the anon key, and what the edge and caller add. */
function balanceRequest(url: string, anonKey: string, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ address: freshAddress() }),
  });
}

/** What a caller reads of an answer: its status, code and Retry-After. */
async function read(answer: Response) {
  const body = (await answer.json()) as { code?: string };
  return { status: answer.status, code: body.code ?? null, retryAfter: answer.headers.get('retry-after') };
}

/**
 * Waits, if the window the limits count in (windows of `seconds`, on the clock the database
 * shares with this process) ends within `ms`, for the next one, so a burst is counted in one.
 */
async function roomInWindow(seconds: number, ms: number): Promise<void> {
  const left = () => seconds * 1000 - (Date.now() % (seconds * 1000));
  await vi.waitFor(
    () => {
      if (left() < ms) throw new Error(`the window ends in ${left()} ms`);
    },
    { timeout: ms + 1000, interval: 100 },
  );
}

describe('native-balance with no limit configured', () => {
  // A stack of its own, started as a project without BALANCE_RATE_LIMIT or BALANCE_RATE_CEILING:
  // its function runs under Deno from index.ts, which picks the defaults. It is called at its own
  // URL, as behind a hosted edge, which appends the client it saw to x-forwarded-for.
  let gateway: Gateway;
  let ask: (client: string) => Promise<Response>;

  beforeAll(async () => {
    gateway = await startOwnGateway('balance-defaults', {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      functionLog: () => {},
    });
    const url = gateway.functions.urls['native-balance'] ?? '';
    ask = (client) => fetch(balanceRequest(url, gateway.anonKey, { 'x-forwarded-for': client }));
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('lets a client 30 reads a minute, and refuses the 31st until the minute is over', async () => {
    await roomInWindow(60, 15_000);
    const client = someClient();
    const statuses: number[] = [];
    for (let asked = 0; asked < 30; asked++) statuses.push((await ask(client)).status);
    expect(statuses).toEqual(Array<number>(30).fill(200));
    const limited = await read(await ask(client));
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    // Another client is counted apart.
    expect((await ask(someClient())).status).toBe(200);
  }, 40_000);

  it('lets all clients together 600 reads a minute, then says the service is busy', async () => {
    await roomInWindow(60, 10_000);
    // The minute's count as 599 requests of other clients within their own limits left it (the
    // project-wide bucket take_rate_limit keeps for native-balance); 600 real ones would take the
    // whole minute on a busy machine.
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const spent = await serviceClient({
      url: gateway.url,
      anonKey: gateway.anonKey,
      serviceRoleKey: gateway.serviceRoleKey,
    })
      .from('function_rate_limits')
      .upsert({ bucket: 'native-balance:all', window_start: minute, requests: 599 });
    expect(spent.error).toBeNull();

    expect(await read(await ask(someClient()))).toMatchObject({ status: 200 });
    const busy = await read(await ask(someClient()));
    expect(busy).toMatchObject({ status: 429, code: 'busy' });
    expect(Number(busy.retryAfter)).toBeGreaterThan(0);
    expect(Number(busy.retryAfter)).toBeLessThanOrEqual(60);
  }, 30_000);
});

/** A balance that needs no provider: these tests are about who is counted, not what is read. */
const zeroBalance: TatumApi = {
  subscribe: () => Promise.reject(new Error('not used')),
  unsubscribe: () => Promise.reject(new Error('not used')),
  nativeBalance: () => Promise.resolve({ balance: '0', asset: 'ETH' }),
};
/** A window no test outlives: the counts below are not reset under them. */
const HOURLY = 3600;
const NO_CEILING: RateLimit = { requests: 1_000_000, windowSeconds: HOURLY };

/** An instance of the function on the shared stack's database, with a client of its own. */
const instance = (requests: number): Handler =>
  createNativeBalanceHandler({
    supabase: serviceClient(stack),
    tatum: zeroBalance,
    apiKeys: [stack.anonKey],
    limit: { requests, windowSeconds: HOURLY },
    ceiling: NO_CEILING,
  });
const FUNCTION_URL = `${stack.url}/functions/v1/native-balance`;
const askAs = (handler: Handler, headers: Record<string, string>) =>
  handler(balanceRequest(FUNCTION_URL, stack.anonKey, headers)).then(read);

describe('native-balance keeps its count in the database', () => {
  it('shares one count between two instances of the function, and with one started after them', async () => {
    await roomInWindow(HOURLY, 10_000);
    const [first, second] = [instance(2), instance(2)];
    const client = { 'x-forwarded-for': someClient() };
    expect((await askAs(first, client)).status).toBe(200);
    expect((await askAs(second, client)).status).toBe(200);
    expect(await askAs(first, client)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await askAs(second, client)).toMatchObject({ status: 429, code: 'rate_limited' });
    // A restart: an instance that remembers nothing.
    const restarted = instance(2);
    expect(await askAs(restarted, client)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await askAs(restarted, { 'x-forwarded-for': someClient() })).status).toBe(200);
  });
});

describe('native-balance without x-forwarded-for', () => {
  it('counts a caller by the user of their bearer token, whichever session it is', async () => {
    await roomInWindow(HOURLY, 10_000);
    const handler = instance(2);
    const [alice, bob] = await Promise.all([signedInUser(stack, 'nb-alice'), signedInUser(stack, 'nb-bob')]);
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await askAs(handler, as(alice.accessToken))).status).toBe(200);
    expect((await askAs(handler, as(alice.accessToken))).status).toBe(200);
    expect(await askAs(handler, as(alice.accessToken))).toMatchObject({ status: 429, code: 'rate_limited' });
    // Signed in again elsewhere: another token, the same user, the same count.
    const again = await anonClient(stack).auth.signInWithPassword({
      email: alice.email,
      password: alice.password,
    });
    const otherSession = again.data.session?.access_token ?? '';
    expect(otherSession).not.toBe(alice.accessToken);
    expect(await askAs(handler, as(otherSession))).toMatchObject({ status: 429, code: 'rate_limited' });
    // Another user is counted apart.
    expect((await askAs(handler, as(bob.accessToken))).status).toBe(200);
  });

  it('counts every caller without a user’s session together', async () => {
    await roomInWindow(HOURLY, 10_000);
    const handler = instance(2);
    // Their count is the whole stack's, which no other test meets: behind the gateway every
    // request carries x-forwarded-for, and every other test here sends one or a token.
    // No token, and a token that is no user's session: both anonymous.
    expect((await askAs(handler, {})).status).toBe(200);
    expect((await askAs(handler, { authorization: `Bearer ${stack.anonKey}` })).status).toBe(200);
    expect(await askAs(handler, {})).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await askAs(handler, { authorization: 'Bearer not-a-session' })).toMatchObject({
      status: 429,
      code: 'rate_limited',
    });
    // A signed-in caller is not one of them.
    const carol = await signedInUser(stack, 'nb-carol');
    expect((await askAs(handler, { authorization: `Bearer ${carol.accessToken}` })).status).toBe(200);
  });
});

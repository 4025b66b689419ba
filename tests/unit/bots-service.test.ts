import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Bot } from '../../src/domain/bots.ts';
import {
  BOT_NOT_FOUND,
  createBotsService,
  type BotRow,
  type BotsService,
} from '../../src/services/bots/index.ts';
import {
  BackendError,
  CLIENT_UNAVAILABLE,
  NETWORK_ERROR,
  createSupabaseClient,
} from '../../src/services/supabase/index.ts';

// What the bots service sends to PostgREST and makes of its answers, played by msw in front of
// the real supabase-js: the rows as the portal's types (one rule per kind, the other kinds'
// columns cleared), the runs grouped per bot, and every failure as a BackendError. The tables'
// own rules are the postgres and contract tests' business.

const ORIGIN = 'http://127.0.0.1:59433';
const USER_ID = '6f41357b-5815-4fd0-bac4-aaf8b0eeee23';
const BOT_ID = '0b6c4f0e-3a57-4a55-9d0b-7d6f1f7d2c11';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function service(): BotsService {
  return createBotsService(
    createSupabaseClient({ url: ORIGIN, anonKey: 'anon-key', realtimeTransport: WebSocket }),
  );
}

async function refusal(promise: Promise<unknown>): Promise<BackendError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BackendError)) throw error;
  return error;
}

const row: BotRow = {
  id: BOT_ID,
  user_id: USER_ID,
  name: 'Breakout',
  kind: 'price_above',
  level: 0.0021,
  move_pct: null,
  window_minutes: null,
  min_ddex: null,
  cooldown_minutes: 15,
  status: 'active',
  armed_at: '2026-01-01T00:00:00+00:00',
  last_fired_at: null,
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
};
const bot: Bot = {
  id: BOT_ID,
  name: 'Breakout',
  rule: { kind: 'priceAbove', level: 0.0021 },
  cooldownMinutes: 15,
  status: 'active',
  lastFiredAt: null,
  createdAt: '2026-01-01T00:00:00+00:00',
};

const runRow = (id: string, botId: string, blockTime: string) => ({
  id,
  bot_id: botId,
  tx_hash: `0x${'ab'.repeat(32)}`,
  block_time: blockTime,
  price_before: 0.002,
  // The local stack's REST sends a numeric that a number cannot hold exactly as its text.
  price_after: '0.0021000000000000000001',
  ddex_amount: 1234.5,
  side: 'buy',
});

describe('bots service: reading', () => {
  it("lists the user's bots oldest first, each kind as its rule", async () => {
    let query: Record<string, string> = {};
    server.use(
      http.get(`${ORIGIN}/rest/v1/bots`, ({ request }) => {
        query = Object.fromEntries(new URL(request.url).searchParams);
        return HttpResponse.json([
          row,
          { ...row, id: 'b', kind: 'price_below', level: '0.0019' },
          { ...row, id: 'c', kind: 'price_move', level: null, move_pct: 5, window_minutes: 240 },
          { ...row, id: 'd', kind: 'large_swap', level: null, min_ddex: 10000, status: 'paused' },
        ]);
      }),
    );
    const bots = await service().listBots(USER_ID);
    expect(query).toEqual({ select: '*', user_id: `eq.${USER_ID}`, order: 'created_at.asc,id.asc' });
    expect(bots.map((each) => [each.rule, each.status])).toEqual([
      [{ kind: 'priceAbove', level: 0.0021 }, 'active'],
      [{ kind: 'priceBelow', level: 0.0019 }, 'active'],
      [{ kind: 'priceMove', movePct: 5, windowMinutes: 240 }, 'active'],
      [{ kind: 'largeSwap', minDdex: 10_000 }, 'paused'],
    ]);
    expect(bots[0]).toEqual(bot);
  });

  it('refuses a row the tables should never hold', async () => {
    for (const odd of [
      { ...row, kind: 'sometimes' },
      { ...row, status: 'sleeping' },
      { ...row, level: null },
      { ...row, kind: 'price_move', level: null, move_pct: 5, window_minutes: 45 },
    ]) {
      server.use(http.get(`${ORIGIN}/rest/v1/bots`, () => HttpResponse.json([odd])));
      expect(await refusal(service().listBots(USER_ID))).toBeInstanceOf(BackendError);
    }
  });

  it('reads the newest runs in one query and groups them per bot, at most perBot each', async () => {
    let query: Record<string, string> = {};
    server.use(
      http.get(`${ORIGIN}/rest/v1/bot_runs`, ({ request }) => {
        query = Object.fromEntries(new URL(request.url).searchParams);
        return HttpResponse.json([
          runRow('r3', 'b1', '2026-01-03T00:00:00Z'),
          runRow('r2', 'b2', '2026-01-02T00:00:00Z'),
          runRow('r1', 'b1', '2026-01-01T00:00:00Z'),
          runRow('r0', 'b1', '2026-01-01T00:00:00Z'),
        ]);
      }),
    );
    const runs = await service().listRuns(USER_ID, { limit: 50, perBot: 2 });
    expect(query).toEqual({
      select: 'id,bot_id,tx_hash,block_time,price_before,price_after,ddex_amount,side',
      user_id: `eq.${USER_ID}`,
      order: 'block_time.desc,created_at.desc',
      limit: '50',
    });
    expect(Object.fromEntries(Object.entries(runs).map(([id, list]) => [id, list.map((r) => r.id)]))).toEqual(
      {
        b1: ['r3', 'r1'],
        b2: ['r2'],
      },
    );
    expect(runs['b1']?.[0]).toEqual({
      id: 'r3',
      botId: 'b1',
      txHash: `0x${'ab'.repeat(32)}`,
      blockTime: '2026-01-03T00:00:00Z',
      priceBefore: 0.002,
      priceAfter: 0.0021,
      ddexAmount: 1234.5,
      side: 'buy',
    });
  });
});

describe('bots service: writing', () => {
  it('creates a bot with its own rule columns only, and the owner left to the database', async () => {
    let sent: Record<string, unknown> = {};
    server.use(
      http.post(`${ORIGIN}/rest/v1/bots`, async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ ...row, kind: 'large_swap', level: null, min_ddex: 500 });
      }),
    );
    const created = await service().createBot({
      name: 'Whale',
      rule: { kind: 'largeSwap', minDdex: 500 },
      cooldownMinutes: 60,
    });
    expect(sent).toEqual({
      name: 'Whale',
      kind: 'large_swap',
      level: null,
      move_pct: null,
      window_minutes: null,
      min_ddex: 500,
      cooldown_minutes: 60,
    });
    expect(created.rule).toEqual({ kind: 'largeSwap', minDdex: 500 });
  });

  it('updates one bot by id, clearing the columns of its old kind, and sets a status alone', async () => {
    const patches: { id: string | null; body: unknown }[] = [];
    server.use(
      http.patch(`${ORIGIN}/rest/v1/bots`, async ({ request }) => {
        patches.push({ id: new URL(request.url).searchParams.get('id'), body: await request.json() });
        return HttpResponse.json({ ...row, status: 'paused' });
      }),
    );
    await service().updateBot(BOT_ID, {
      name: 'Mover',
      rule: { kind: 'priceMove', movePct: 2.5, windowMinutes: 60 },
      cooldownMinutes: 30,
    });
    const paused = await service().setStatus(BOT_ID, 'paused');
    expect(patches).toEqual([
      {
        id: `eq.${BOT_ID}`,
        body: {
          name: 'Mover',
          kind: 'price_move',
          level: null,
          move_pct: 2.5,
          window_minutes: 60,
          min_ddex: null,
          cooldown_minutes: 30,
        },
      },
      { id: `eq.${BOT_ID}`, body: { status: 'paused' } },
    ]);
    expect(paused.status).toBe('paused');
  });

  it('says bot_not_found when the bot is gone, and passes on any other refusal', async () => {
    server.use(
      http.patch(`${ORIGIN}/rest/v1/bots`, () =>
        HttpResponse.json(
          { code: 'PGRST116', message: 'Cannot coerce the result to a single JSON object' },
          { status: 406 },
        ),
      ),
      http.post(`${ORIGIN}/rest/v1/bots`, () =>
        HttpResponse.json({ code: '23514', message: 'A user can have at most 25 bots' }, { status: 400 }),
      ),
    );
    expect(await refusal(service().setStatus(BOT_ID, 'active'))).toMatchObject({ code: BOT_NOT_FOUND });
    expect(
      await refusal(service().createBot({ name: 'x', rule: bot.rule, cooldownMinutes: 15 })),
    ).toMatchObject({ code: '23514', status: 400, message: 'A user can have at most 25 bots' });
  });

  it('deletes by id', async () => {
    let query = '';
    server.use(
      http.delete(`${ORIGIN}/rest/v1/bots`, ({ request }) => {
        query = new URL(request.url).searchParams.get('id') ?? '';
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await service().deleteBot(BOT_ID);
    expect(query).toBe(`eq.${BOT_ID}`);
  });

  it('reports a request that got no answer as network_error', async () => {
    server.use(http.delete(`${ORIGIN}/rest/v1/bots`, () => HttpResponse.error()));
    expect(await refusal(service().deleteBot(BOT_ID))).toMatchObject({ code: NETWORK_ERROR });
  });
});

describe('bots service without a backend', () => {
  it('refuses every request with client_unavailable, and its feed says why', async () => {
    const unavailable = createBotsService(null);
    expect(await refusal(unavailable.listBots(USER_ID))).toMatchObject({ code: CLIENT_UNAVAILABLE });
    expect(await refusal(unavailable.deleteBot(BOT_ID))).toMatchObject({ code: CLIENT_UNAVAILABLE });
    const statuses: string[] = [];
    unavailable.subscribeBots(
      USER_ID,
      () => undefined,
      (status) => statuses.push(status),
    );
    await Promise.resolve();
    expect(statuses).toEqual(['CHANNEL_ERROR']);
  });
});

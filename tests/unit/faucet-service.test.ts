import { describe, expect, it } from 'vitest';
import { faucetOffered } from '../../src/domain/faucet.ts';
import { createFaucetService, FaucetError } from '../../src/services/faucet/index.ts';
import type { FunctionsClient } from '../../src/services/tatum/types.ts';

// The faucet's client: what it sends the `faucet` function and how it reads each answer of the
// protocol (docs/deploy.md#the-faucet). The function itself is driven for real in
// tests/contract/faucet.test.ts, the whole claim through the page in tests/e2e/faucet.e2e.test.ts.

const TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';
const PAID = { txHash: `0x${'ab'.repeat(32)}`, amount: '100', nextClaimAt: '2026-12-06T10:00:00.000Z' };

type Call = { name: string; method: string; body?: Record<string, unknown> };

/** A client whose functions answer from `reply`, as supabase-js does: data, or an error with the Response. */
function clientAnswering(reply: () => { status: number; body: unknown } | Error) {
  const calls: Call[] = [];
  const client: FunctionsClient = {
    functions: {
      invoke: (name, options) => {
        calls.push({ name, ...options });
        const answer = reply();
        if (answer instanceof Error) return Promise.resolve({ data: null, error: answer });
        if (answer.status < 300) return Promise.resolve({ data: answer.body, error: null });
        const context = new Response(JSON.stringify(answer.body), { status: answer.status });
        return Promise.resolve({ data: null, error: { name: 'FunctionsHttpError', context } });
      },
    },
  };
  return { calls, service: createFaucetService({ client: () => Promise.resolve(client) }) };
}

async function refusal(promise: Promise<unknown>): Promise<FaucetError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof FaucetError)) throw error;
  return error;
}

describe('the faucet service', () => {
  it('posts only the human check’s token to the faucet function and returns the claim', async () => {
    const { calls, service } = clientAnswering(() => ({ status: 200, body: PAID }));
    await expect(service.claim(TOKEN)).resolves.toEqual(PAID);
    expect(calls).toEqual([{ name: 'faucet', method: 'POST', body: { captcha: TOKEN } }]);
  });

  it.each([
    [409, 'no_proven_wallet', 'no_proven_wallet'],
    [403, 'human_check_failed', 'human_check_failed'],
    [503, 'faucet_empty', 'faucet_empty'],
    [401, 'unauthorized', 'not_signed_in'],
    [401, 'PGRST301', 'not_signed_in'],
    [502, 'chain_unavailable', 'unavailable'],
    [500, 'faucet_failed', 'unavailable'],
  ] as const)('reads a %i %s as %s', async (status, code, expected) => {
    const { service } = clientAnswering(() => ({ status, body: { code, message: 'said' } }));
    const error = await refusal(service.claim(TOKEN));
    expect(error.faucetCode).toBe(expected);
    expect(error.nextClaimAt).toBeNull();
  });

  it('reads 429 too_soon with the time of the next claim', async () => {
    const nextClaimAt = '2026-12-06T10:00:00.000Z';
    const { service } = clientAnswering(() => ({
      status: 429,
      body: { code: 'too_soon', message: 'later', nextClaimAt },
    }));
    const error = await refusal(service.claim(TOKEN));
    expect(error).toMatchObject({ faucetCode: 'too_soon', nextClaimAt });
  });

  it('reads a too_soon without a time as the faucet being unavailable', async () => {
    const { service } = clientAnswering(() => ({ status: 429, body: { code: 'too_soon' } }));
    expect((await refusal(service.claim(TOKEN))).faucetCode).toBe('unavailable');
  });

  it('says network when no answer came, and unavailable for a 200 that is no claim', async () => {
    const offline = clientAnswering(() => new TypeError('Failed to fetch'));
    expect((await refusal(offline.service.claim(TOKEN))).faucetCode).toBe('network');
    const odd = clientAnswering(() => ({ status: 200, body: { txHash: 42 } }));
    expect((await refusal(odd.service.claim(TOKEN))).faucetCode).toBe('unavailable');
  });

  it('says network when the client itself cannot load', async () => {
    const service = createFaucetService({ client: () => Promise.reject(new Error('chunk failed')) });
    expect((await refusal(service.claim(TOKEN))).faucetCode).toBe('network');
  });
});

describe('who is offered the faucet', () => {
  const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const proven = { wallet_address: wallet, wallet_verified_at: '2026-12-01T00:00:00Z' };

  it('a proven wallet that is the one connected, in any case', () => {
    expect(faucetOffered(proven, wallet.toLowerCase())).toBe(true);
  });

  it('nobody else: no profile, no wallet, an unproven wallet, another wallet', () => {
    expect(faucetOffered(null, wallet)).toBe(false);
    expect(faucetOffered(proven, null)).toBe(false);
    expect(faucetOffered({ ...proven, wallet_verified_at: null }, wallet)).toBe(false);
    expect(faucetOffered(proven, '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')).toBe(false);
  });
});

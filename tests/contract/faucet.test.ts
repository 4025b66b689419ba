import { FunctionsHttpError } from '@supabase/supabase-js';
import { parseEther, parseUnits, type Address } from 'viem';
import { describe, expect, inject, it, vi } from 'vitest';
import { HCAPTCHA_TEST_KEYS } from '../../stack/gateway/hcaptcha-siteverify.ts';
import { readerOf, tokenBalance } from '../support/stack/chain.ts';
import { anonClient, fileUsers, seenOf, type Client } from '../support/stack/users.ts';
import {
  freshWallet,
  releaseWalletAsServer,
  setWalletAsServer,
  userWithWallet,
} from '../support/stack/wallets.ts';

// The faucet function (supabase/functions/faucet), as any client calls it: the user's session and
// `{"captcha": "<hCaptcha response token>"}`. It pays 100 DDEX (and locally 0.1 ETH for gas) to the
// caller's proven wallet, once per 24 hours per account and per address, after hCaptcha's check
// (locally the stack's siteverify, which passes hCaptcha's documented test token only).

const stack = inject('gateway');
const chain = inject('chain');
const users = fileUsers(stack);
const PASSING = HCAPTCHA_TEST_KEYS.response;
const DAY_MS = 24 * 3_600_000;

type Answer = { status: number; body: Record<string, unknown>; retryAfter: string | null };

async function claim(client: Client, body: unknown): Promise<Answer> {
  const { data, error, response } = await client.functions.invoke('faucet', {
    body: body as Record<string, unknown>,
  });
  if (error instanceof FunctionsHttpError) {
    const answer = error.context as Response;
    return {
      status: answer.status,
      body: (await answer.json()) as Record<string, unknown>,
      retryAfter: answer.headers.get('retry-after'),
    };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data as Record<string, unknown>, retryAfter: null };
}

const ethBalance = (address: Address) => readerOf(chain).getBalance({ address });

describe('a claim', () => {
  it("pays 100 DDEX and 0.1 ETH to the caller's proven wallet, records the human check, and says when to come back", async () => {
    const wallet = freshWallet().address;
    const user = await userWithWallet(users, 'faucet-paid', wallet);
    const startedAt = Date.now();

    const answer = await claim(user.client, { captcha: PASSING });

    expect(answer.status).toBe(200);
    expect(answer.body['amount']).toBe('100');
    expect(await tokenBalance(chain, wallet)).toBe(parseUnits('100', 18));
    expect(await ethBalance(wallet)).toBe(parseEther('0.1'));
    const receipt = await readerOf(chain).getTransactionReceipt({
      hash: answer.body['txHash'] as `0x${string}`,
    });
    expect(receipt.status).toBe('success');
    const next = Date.parse(String(answer.body['nextClaimAt']));
    expect(next - startedAt).toBeGreaterThanOrEqual(DAY_MS - 60_000);
    expect(next - Date.now()).toBeLessThanOrEqual(DAY_MS);
    const { data: profile } = await users.service
      .from('profiles')
      .select('hcaptcha_sim_verified')
      .eq('id', user.id)
      .single();
    expect(profile?.hcaptcha_sim_verified).toBe(true);
  });
});

describe('the history', () => {
  it('records the claim as a faucet row of the wallet’s history and tells the user, like any transfer in', async () => {
    const wallet = freshWallet().address;
    const user = await userWithWallet(users, 'faucet-history', wallet);
    const answer = await claim(user.client, { captcha: PASSING });
    expect(answer.status).toBe(200);
    const txHash = String(answer.body['txHash']);

    const seen = await vi.waitFor(
      async () => {
        const now = await seenOf(user, txHash);
        expect(now.transactions.map((row) => row.type)).toContain('faucet');
        expect(now.notifications).toHaveLength(1);
        return now;
      },
      { timeout: 15_000, interval: 200 },
    );
    const row = seen.transactions.find((candidate) => candidate.type === 'faucet');
    expect(row).toMatchObject({ amount: '100', token_symbol: 'DDEX', status: 'confirmed' });
    expect(seen.transactions.map((candidate) => candidate.type)).not.toContain('token_received');
    expect(seen.notifications[0]?.message).toContain('from the faucet');
  });
});

describe('refusals', () => {
  it('refuses a second claim within 24 hours with the time of the next one, and pays nothing', async () => {
    const wallet = freshWallet().address;
    const user = await userWithWallet(users, 'faucet-twice', wallet);
    const first = await claim(user.client, { captcha: PASSING });
    expect(first.status).toBe(200);

    const second = await claim(user.client, { captcha: PASSING });

    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ code: 'too_soon', nextClaimAt: first.body['nextClaimAt'] });
    expect(Number(second.retryAfter)).toBeGreaterThan(DAY_MS / 1000 - 120);
    expect(await tokenBalance(chain, wallet)).toBe(parseUnits('100', 18));
  });

  it('counts the address as well as the account: the wallet under another account waits too', async () => {
    const wallet = freshWallet().address;
    const first = await userWithWallet(users, 'faucet-first-owner', wallet);
    expect((await claim(first.client, { captcha: PASSING })).status).toBe(200);
    // The wallet moves to another account (unlinked, then proven by the other).
    await releaseWalletAsServer(users.service, wallet);
    const second = await userWithWallet(users, 'faucet-second-owner', wallet);

    const answer = await claim(second.client, { captcha: PASSING });

    expect(answer.status).toBe(429);
    expect(answer.body['code']).toBe('too_soon');
  });

  it('refuses a claim without the human check, or with one that did not pass, and takes no claim', async () => {
    const wallet = freshWallet().address;
    const user = await userWithWallet(users, 'faucet-robot', wallet);

    for (const body of [{}, { captcha: '' }, { captcha: 'P1_not-a-solved-challenge' }]) {
      const answer = await claim(user.client, body);
      expect(answer.status, JSON.stringify(body)).toBe(403);
      expect(answer.body['code']).toBe('human_check_failed');
    }
    expect(await tokenBalance(chain, wallet)).toBe(0n);
    // Nothing was taken: with the check passed, the claim is paid at once.
    expect((await claim(user.client, { captcha: PASSING })).status).toBe(200);
  });

  it("refuses a claim that names another user's wallet, paying nobody", async () => {
    const theirs = freshWallet().address;
    await userWithWallet(users, 'faucet-victim', theirs);
    const mine = freshWallet().address;
    const claimer = await userWithWallet(users, 'faucet-claimer', mine);

    const answer = await claim(claimer.client, { captcha: PASSING, address: theirs });

    expect(answer.status).toBe(400);
    expect(answer.body['code']).toBe('malformed');
    expect(await tokenBalance(chain, theirs)).toBe(0n);
    expect(await tokenBalance(chain, mine)).toBe(0n);
  });

  it('refuses a caller without a session (401) and one without a proven wallet (409)', async () => {
    expect((await claim(anonClient(stack), { captcha: PASSING })).status).toBe(401);

    const noWallet = await userWithWallet(users, 'faucet-no-wallet', null);
    const unproven = freshWallet().address;
    const notProven = await userWithWallet(users, 'faucet-unproven', unproven, { verified: false });
    for (const user of [noWallet, notProven]) {
      const answer = await claim(user.client, { captcha: PASSING });
      expect(answer.status).toBe(409);
      expect(answer.body['code']).toBe('no_proven_wallet');
    }
    expect(await tokenBalance(chain, unproven)).toBe(0n);
    await setWalletAsServer(users.service, notProven.id, null, false);
  });
});

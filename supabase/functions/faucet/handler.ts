import type { SupabaseClient } from '@supabase/supabase-js';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEther,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { readTextLimited } from '../_shared/body.ts';
import { callerId } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { refuse, reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { verifyHuman, type HumanCheck } from './human-check.ts';

// faucet pays a fixed amount of DDEX (and, on the local chain, a little ETH for gas) to the
// signed-in caller's proven wallet, from a wallet whose key is the function's secret, at most once
// per 24 hours per account and per address, behind hCaptcha's human check. The protocol:
//   POST /functions/v1/faucet, the user's session, `{"captcha": "<hCaptcha response token>"}`
//   → 200 `{"txHash", "amount", "nextClaimAt"}`
//   → `{"code", "message", …}`: 401 unauthorized, 409 no_proven_wallet, 403 human_check_failed,
//     429 too_soon (with nextClaimAt), 503 faucet_empty; 400 malformed, 405, 413, 502 when
//     hCaptcha or the chain cannot be reached.
// The wallet is the profile's proven one (link-wallet): the body names none, so nobody can have
// the faucet pay another user's wallet. Like the other functions it is a plain Web-API handler:
// the same module runs on Supabase Edge Functions (Deno, see index.ts) and on the local stack.

export type FaucetDeps = {
  /** A service-role client: it resolves the caller and keeps the claims no user may touch. */
  supabase: SupabaseClient<Database>;
  rpcUrl: string;
  chainId: number;
  /** The DDEX contract. */
  tokenAddress: Address;
  /** The faucet wallet's key (FAUCET_PRIVATE_KEY): never logged, never answered. */
  faucetKey: Hex;
  /** DDEX per claim, e.g. '100'. */
  amount: string;
  /** ETH per claim for gas, e.g. '0.1'; '0' sends none (on Sepolia the page links to ETH faucets). */
  ethAmount: string;
  human: HumanCheck;
  cooldownHours?: number;
  fetch?: typeof fetch;
};

export const MAX_BODY_BYTES = 4 * 1024;
export const DEFAULT_COOLDOWN_HOURS = 24;
const DDEX_DECIMALS = 18;

type Refusal = {
  status: number;
  code: string;
  message: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

const tooSoon = (nextClaimAt: string): Refusal => ({
  status: 429,
  code: 'too_soon',
  message: `You can claim test DDEX again at ${nextClaimAt}.`,
  extra: { nextClaimAt },
  headers: { 'retry-after': String(Math.max(1, Math.ceil((Date.parse(nextClaimAt) - Date.now()) / 1000))) },
});

export function createFaucetHandler(deps: FaucetDeps): (request: Request) => Promise<Response> {
  const { supabase, human } = deps;
  const cooldownHours = deps.cooldownHours ?? DEFAULT_COOLDOWN_HOURS;
  const account = privateKeyToAccount(deps.faucetKey);
  const transport = http(deps.rpcUrl, deps.fetch ? { fetchFn: deps.fetch } : {});
  const chain = {
    id: deps.chainId,
    name: `chain ${deps.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [deps.rpcUrl] } },
  } as const;
  const reader = createPublicClient({ chain, transport });
  const payer = createWalletClient({ account, chain, transport });
  const ddex = parseUnits(deps.amount, DDEX_DECIMALS);
  const eth = parseEther(deps.ethAmount);
  // One claim pays at a time: two would take the same nonce of the one faucet wallet.
  let paying: Promise<unknown> = Promise.resolve();

  const lastClaimAt = async (userId: string, address: string): Promise<string | null> => {
    const { data, error } = await supabase
      .from('faucet_claims')
      .select('claimed_at')
      .or(`user_id.eq.${userId},address.eq.${address}`)
      .order('claimed_at', { ascending: false })
      .limit(1);
    if (error) throw new Error(`reading the last claim failed: ${error.message}`);
    return data[0]?.claimed_at ?? null;
  };

  const nextAfter = (claimedAt: string) =>
    new Date(Date.parse(claimedAt) + cooldownHours * 3_600_000).toISOString();

  /** Whether the faucet can pay a claim now: the DDEX, the ETH it sends and some for gas. */
  const canPay = async (): Promise<boolean> => {
    const [tokens, ether] = await Promise.all([
      reader.readContract({
        address: deps.tokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      }),
      reader.getBalance({ address: account.address }),
    ]);
    return tokens >= ddex && ether > eth;
  };

  const pay = (to: Address): Promise<Hex> => {
    const run = paying.then(async () => {
      const hash = await payer.writeContract({
        address: deps.tokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, ddex],
      });
      if (eth > 0n) await payer.sendTransaction({ to, value: eth });
      return hash;
    });
    paying = run.catch(() => undefined);
    return run;
  };

  const claim = async (request: Request): Promise<Response | Refusal> => {
    if (request.method !== 'POST') return { status: 405, code: 'method_not_allowed', message: 'Use POST.' };
    const userId = await callerId(supabase, request);
    if (userId === null) {
      return { status: 401, code: 'unauthorized', message: 'Sign in to claim test DDEX.' };
    }
    const text = await readTextLimited(request, MAX_BODY_BYTES);
    if (text === null) return { status: 413, code: 'too_large', message: 'The request is too large.' };
    const captcha = captchaOf(text);
    if (captcha === undefined) {
      return {
        status: 400,
        code: 'malformed',
        message: 'Send only {"captcha": "<hCaptcha response token>"}: the faucet pays your proven wallet.',
      };
    }

    const { data: profile, error } = await supabase
      .from('profiles')
      .select('wallet_address, wallet_verified_at')
      .eq('id', userId)
      .maybeSingle();
    if (error) throw new Error(`reading the profile failed: ${error.message}`);
    const wallet = profile?.wallet_verified_at ? profile.wallet_address : null;
    if (!wallet) {
      return {
        status: 409,
        code: 'no_proven_wallet',
        message: 'Link a wallet to your profile (a signed proof) before you claim test DDEX.',
      };
    }
    const address = wallet.toLowerCase();
    const last = await lastClaimAt(userId, address);
    if (last !== null && Date.parse(nextAfter(last)) > Date.now()) return tooSoon(nextAfter(last));

    const verdict = await verifyHuman(human, captcha, request.headers.get('x-forwarded-for'), deps.fetch);
    if (verdict === 'unavailable') {
      return {
        status: 502,
        code: 'human_check_unavailable',
        message: 'The human check could not be reached. Try again.',
      };
    }
    if (verdict === 'failed') {
      return {
        status: 403,
        code: 'human_check_failed',
        message: 'The human check did not pass. Try it again.',
      };
    }
    const verified = await supabase.from('profiles').update({ hcaptcha_sim_verified: true }).eq('id', userId);
    if (verified.error) throw new Error(`recording the human check failed: ${verified.error.message}`);

    if (!(await canPay())) {
      return { status: 503, code: 'faucet_empty', message: 'The faucet is empty. Try again later.' };
    }
    const taken = await supabase.rpc('take_faucet_claim', {
      p_user_id: userId,
      p_address: address,
      p_amount: deps.amount,
      p_cooldown: `${cooldownHours} hours`,
    });
    if (taken.error) throw new Error(`taking the claim failed: ${taken.error.message}`);
    const [row] = taken.data ?? [];
    if (!row) throw new Error('taking the claim answered no row');
    if (row.claim_id === null) return tooSoon(new Date(row.next_claim_at).toISOString());

    let txHash: Hex;
    try {
      txHash = await pay(wallet as Address);
    } catch (sendError) {
      // Nothing was paid: the claim is given back, so the user may try again at once.
      await supabase.from('faucet_claims').delete().eq('id', row.claim_id);
      logError('faucet', 'paying failed', sendError);
      return { status: 502, code: 'chain_unavailable', message: 'The faucet could not send. Try again.' };
    }
    await supabase.from('faucet_claims').update({ tx_hash: txHash }).eq('id', row.claim_id);
    return reply(200, {
      txHash,
      amount: deps.amount,
      nextClaimAt: new Date(row.next_claim_at).toISOString(),
    });
  };

  return async (request) => {
    try {
      const outcome = await claim(request);
      if (outcome instanceof Response) return outcome;
      const response = refuse(outcome.status, outcome.code, outcome.message, outcome.extra);
      for (const [name, value] of Object.entries(outcome.headers ?? {})) response.headers.set(name, value);
      return response;
    } catch (error) {
      logError('faucet', 'claim failed', error);
      return refuse(500, 'faucet_failed', 'The faucet failed. Try again later.');
    }
  };
}

/**
 * The hCaptcha response token in `{"captcha": "…"}`: '' when absent or empty; undefined for any
 * other body, one naming a wallet included (the faucet pays the caller's proven wallet only).
 */
function captchaOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  if (Object.keys(body).some((key) => key !== 'captcha')) return undefined;
  const captcha = (body as Record<string, unknown>)['captcha'];
  return typeof captcha === 'string' ? captcha.trim() : '';
}

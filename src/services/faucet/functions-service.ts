import type { FaucetClaim, FaucetRefusalCode } from '../../domain/faucet.ts';
import type { FunctionsClient } from '../tatum/types.ts';
import { FaucetError, type FaucetService, type FaucetServiceConfig } from './types.ts';

// The faucet through the project's `faucet` Edge Function, with the page's session
// (docs/deploy.md#the-faucet): POST {"captcha"} → 200 {txHash, amount, nextClaimAt}, or a refusal
// {code, message, …}. Every answer is checked at run time; what it means is a FaucetError's code.

const FAUCET = 'faucet';

/** The refusals the page words on their own; any other answer is 'unavailable'. */
const REFUSALS: Record<string, FaucetRefusalCode> = {
  no_proven_wallet: 'no_proven_wallet',
  human_check_failed: 'human_check_failed',
  too_soon: 'too_soon',
  faucet_empty: 'faucet_empty',
};

export function createFaucetService(config: FaucetServiceConfig): FaucetService {
  return {
    async claim(captcha) {
      let answer: { data: unknown; error: unknown };
      try {
        const client: FunctionsClient = await config.client();
        answer = await client.functions.invoke(FAUCET, { method: 'POST', body: { captcha } });
      } catch (error) {
        throw new FaucetError('network', { detail: String(error), cause: error });
      }
      if (answer.error) throw await refusal(answer.error);
      const claim = claimOf(answer.data);
      if (!claim) throw new FaucetError('unavailable', { detail: 'unexpected response: no claim' });
      return claim;
    },
  };
}

async function refusal(error: unknown): Promise<FaucetError> {
  const context = isRecord(error) ? error['context'] : null;
  // No answer at all (offline, CORS, the relay failing): supabase-js's own error.
  if (!isAnswer(context)) return new FaucetError('network', { detail: String(error), cause: error });
  const body: unknown = await context.json().catch(() => null);
  const said = isRecord(body) ? body : {};
  const code = typeof said['code'] === 'string' ? said['code'] : `http_${context.status}`;
  const detail = `HTTP ${context.status} ${code}`;
  // The platform's own JWT check answers 401 in its own shape: either way, no session.
  if (context.status === 401) return new FaucetError('not_signed_in', { detail });
  const known = REFUSALS[code];
  if (known === 'too_soon') {
    const next = said['nextClaimAt'];
    return typeof next === 'string' && !Number.isNaN(Date.parse(next))
      ? new FaucetError('too_soon', { detail, nextClaimAt: next })
      : new FaucetError('unavailable', { detail: `${detail} without nextClaimAt` });
  }
  return new FaucetError(known ?? 'unavailable', { detail });
}

function claimOf(data: unknown): FaucetClaim | null {
  if (!isRecord(data)) return null;
  const { txHash, amount, nextClaimAt } = data;
  if (typeof txHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(txHash)) return null;
  if (typeof amount !== 'string' || typeof nextClaimAt !== 'string') return null;
  return { txHash, amount, nextClaimAt };
}

/** The function's HTTP answer that supabase-js hands over with its error, read by shape. */
function isAnswer(value: unknown): value is Response {
  return isRecord(value) && typeof value['status'] === 'number' && typeof value['json'] === 'function';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

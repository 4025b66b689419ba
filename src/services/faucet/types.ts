import type { FaucetClaim, FaucetFailure, FaucetRefusalCode } from '../../domain/faucet.ts';
import type { FunctionsClient } from '../tatum/types.ts';

// The faucet's contract for the machines: one claim, with the hCaptcha response token of a human
// check just passed, paid to the caller's proven wallet by the `faucet` Edge Function
// (docs/deploy.md#the-faucet). The session is the page's supabase-js client's.

export type FaucetServiceConfig = {
  /** The page's one supabase-js client, loaded on first use: the function sees its session. */
  client: () => Promise<FunctionsClient>;
};

export interface FaucetService {
  /** Pays the signed-in caller's proven wallet; rejects with a FaucetError saying why not. */
  claim(captcha: string): Promise<FaucetClaim>;
}

/** Every refusal and failure of a claim, as a code the machines word (src/machines/faucet/faucet-toasts.ts). */
export class FaucetError extends Error implements FaucetFailure {
  override readonly name = 'FaucetError';
  readonly faucetCode: FaucetRefusalCode;
  readonly nextClaimAt: string | null;

  constructor(
    faucetCode: FaucetRefusalCode,
    { detail, nextClaimAt = null, cause }: { detail: string; nextClaimAt?: string | null; cause?: unknown },
  ) {
    super(`faucet: ${faucetCode}: ${detail}`, { cause });
    this.faucetCode = faucetCode;
    this.nextClaimAt = nextClaimAt;
  }
}

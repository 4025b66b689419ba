import type { Profile } from './profile.ts';

// The faucet's facts (issue 33, docs/deploy.md#the-faucet): what a claim answers, why one is
// refused, and who is offered 'Get test DDEX'. The faucet function pays the caller's proven
// wallet only, so the button is offered only where that wallet is the one connected: its DDEX
// balance is the one the person sees grow.

/** The faucet's 200 answer: the DDEX transfer's hash, the DDEX paid ('100') and the next claim's ISO time. */
export type FaucetClaim = { txHash: string; amount: string; nextClaimAt: string };

/**
 * Why a claim did not pay: the function's refusal codes (401 → 'not_signed_in'), 'unavailable'
 * for any other answer (502, 500, an answer that is no claim) and 'network' when none came.
 */
export type FaucetRefusalCode =
  | 'not_signed_in'
  | 'no_proven_wallet'
  | 'human_check_failed'
  | 'too_soon'
  | 'faucet_empty'
  | 'unavailable'
  | 'network';

/** A refused or failed claim, recognised by its shape (one revived from the journal reads the same). */
export type FaucetFailure = {
  faucetCode: FaucetRefusalCode;
  /** With 'too_soon': when the next claim may be made (ISO time); null otherwise. */
  nextClaimAt: string | null;
};

export function isFaucetFailure(value: unknown): value is FaucetFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['faucetCode'] === 'string'
  );
}

/** Whether 'Get test DDEX' is offered: the profile's proven wallet is the wallet connected. */
export function faucetOffered(
  profile: Pick<Profile, 'wallet_address' | 'wallet_verified_at'> | null | undefined,
  connected: string | null,
): boolean {
  const proven = profile?.wallet_verified_at ? profile.wallet_address : null;
  return !!proven && !!connected && proven.toLowerCase() === connected.toLowerCase();
}

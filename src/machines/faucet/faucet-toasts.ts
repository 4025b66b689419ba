import { faucetCopy } from '../../copy/faucet.ts';
import { isFaucetFailure, type FaucetClaim } from '../../domain/faucet.ts';
import { messageOf, type ToastRequest } from '../shared.ts';

// The toast the faucet machine shows for each outcome of a claim (docs/product.md#faucet). Loaded
// with the machine, in the faucet's own chunk (src/app/faucet.ts), not with the entry.

/** When the next claim may be made, in the person's own locale and time zone. */
export function claimTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A paid claim: how much DDEX is on its way. */
export function paidToast(claim: FaucetClaim): ToastRequest {
  return faucetCopy.paid(claim.amount);
}

/** Why a claim was not paid, one toast per refusal of the faucet's protocol. */
export function refusedToast(error: unknown): ToastRequest {
  const words = (): ToastRequest => {
    if (!isFaucetFailure(error)) {
      return {
        title: faucetCopy.unavailable.title,
        description: messageOf(error, faucetCopy.unavailable.description),
      };
    }
    switch (error.faucetCode) {
      case 'too_soon':
        return error.nextClaimAt ? faucetCopy.tooSoon(claimTime(error.nextClaimAt)) : faucetCopy.unavailable;
      case 'human_check_failed':
        return faucetCopy.humanCheckFailed;
      case 'no_proven_wallet':
        return faucetCopy.noProvenWallet;
      case 'faucet_empty':
        return faucetCopy.empty;
      case 'not_signed_in':
        return faucetCopy.notSignedIn;
      case 'network':
        return faucetCopy.network;
      case 'unavailable':
        return faucetCopy.unavailable;
    }
  };
  return { ...words(), variant: 'destructive' };
}

import { assign, fromPromise, sendParent, setup } from 'xstate';
import { authCopy, profileCopy, walletProofCopy } from '../../copy/index.ts';
import type { Profile } from '../../domain/profile.ts';
import type { WalletNonce, WalletProof } from '../../domain/wallet.ts';
import { walletProofRefusal } from '../error-words.ts';
import { messageOf, notProvided, showToast, type ToastRequest } from '../shared.ts';

// Proves that the connected wallet is the user's before the profile links it
// (docs/product.md#wallet-sync), for the profile machine, and ends with the
// linked profile or null:
//
//   requestingNonce  the link-wallet function hands out a nonce for this user and address;
//   signing          an EIP-4361 message carrying it is built and the wallet asked to sign it;
//   verifying        link-wallet checks the signature and links the wallet.
//
// A failure shows one toast and ends with null. A refusal, by the wallet (the user declined) or by
// the function (expired, replayed, another account's wallet, …), is 'Wallet Not Linked' with its
// reason (error-words.ts); a backend that could not be reached or failed keeps the spec's
// 'Database Sync Error' with the service's words. The signature lives in context only while it is
// checked, and the journal redacts it wherever it appears (src/devtools/redact.ts).

export type WalletProofInput = { address: string };

/**
 * What this machine tells the profile machine: the signed proof is on its way to the server. Until
 * then a change of wallet makes the proof moot and the profile machine stops it; from then on
 * the link may already be made, so it lets it end.
 */
export type WalletProofFact = { type: 'walletProof.verifying' };

/** The profile with the wallet linked; null when the proof failed (its toast has been shown). */
export type WalletProofOutput = { profile: Profile } | null;

/** What the signing actor needs besides the page and the chain, which the composition root knows. */
export type SignProofInput = {
  address: string;
  nonce: string;
  /** When the nonce runs out: the message expires then at the latest. */
  expiresAt: string;
  /** The plain-language line of the message. */
  statement: string;
};

export type WalletProofContext = {
  address: string;
  nonce: WalletNonce | null;
  proof: WalletProof | null;
  result: WalletProofOutput;
};

const notLinked = (description: string): ToastRequest => ({
  title: walletProofCopy.notLinked,
  description,
  variant: 'destructive',
});

/** The toast for a backend step that failed: a refusal says why, anything else is the backend's. */
const backendFailed = {
  type: 'showToast',
  params: ({ event }: { event: { error: unknown } }): ToastRequest => {
    const refusal = walletProofRefusal(event.error);
    return refusal !== null
      ? notLinked(refusal)
      : {
          title: profileCopy.databaseSyncError,
          description: messageOf(event.error, authCopy.unexpectedError),
          variant: 'destructive',
        };
  },
} as const;

export const walletProofMachine = setup({
  types: {} as {
    context: WalletProofContext;
    input: WalletProofInput;
    output: WalletProofOutput;
  },
  actors: {
    requestWalletNonce: fromPromise<WalletNonce, { address: string }>(notProvided('requestWalletNonce')),
    /** Builds the message for the page and the configured chain, and asks the wallet to sign it. */
    signProof: fromPromise<WalletProof, SignProofInput>(notProvided('signProof')),
    /** Resolves with the profile row, `wallet_verified_at` set. */
    linkWallet: fromPromise<Profile, WalletProof>(notProvided('linkWallet')),
  },
  actions: {
    showToast,
    tellParent: sendParent((_, fact: WalletProofFact) => fact),
  },
}).createMachine({
  id: 'walletProof',
  context: ({ input }) => ({ address: input.address, nonce: null, proof: null, result: null }),
  initial: 'requestingNonce',
  output: ({ context }) => context.result,
  states: {
    requestingNonce: {
      invoke: {
        id: 'requestWalletNonce',
        src: 'requestWalletNonce',
        input: ({ context }) => ({ address: context.address }),
        onDone: { target: 'signing', actions: assign({ nonce: ({ event }) => event.output }) },
        onError: { target: 'done', actions: backendFailed },
      },
    },
    signing: {
      invoke: {
        id: 'signProof',
        src: 'signProof',
        input: ({ context }) => ({
          address: context.address,
          nonce: context.nonce?.nonce ?? '',
          expiresAt: context.nonce?.expiresAt ?? '',
          statement: walletProofCopy.statement,
        }),
        onDone: { target: 'verifying', actions: assign({ proof: ({ event }) => event.output }) },
        // Whatever fails here is the wallet's (or the message's), never the backend's.
        onError: {
          target: 'done',
          actions: {
            type: 'showToast',
            params: ({ event }) =>
              notLinked(
                walletProofRefusal(event.error) ?? messageOf(event.error, walletProofCopy.walletFailed),
              ),
          },
        },
      },
    },
    verifying: {
      entry: { type: 'tellParent', params: { type: 'walletProof.verifying' } },
      exit: assign({ proof: null }),
      invoke: {
        id: 'linkWallet',
        src: 'linkWallet',
        input: ({ context }) => context.proof ?? { message: '', signature: '' },
        onDone: { target: 'done', actions: assign({ result: ({ event }) => ({ profile: event.output }) }) },
        onError: { target: 'done', actions: backendFailed },
      },
    },
    done: { type: 'final' },
  },
});

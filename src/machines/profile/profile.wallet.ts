import { assign } from 'xstate';
import { profileCopy } from '../../copy/index.ts';
import { sameAddress } from './profile-types.ts';
import { failed } from './profile-toasts.ts';
import { profileSetup } from './profile.setup.ts';

// The profile machine's wallet states (docs/product.md#wallet-sync): linking the connected wallet
// once walletProof has proven it, and clearing it on disconnect. Both go on to `updatingMetadata`
// (profile.machine.ts), which keeps the auth metadata's wallet in step.

export const linkingWalletState = profileSetup.createStateConfig({
  // While the wallet is asked, another account or a disconnect makes the proof moot: it stops
  // (a late signature is dropped) and the new fact decides. Once the proof is on its way to
  // the server the link may already be made, so it ends and the fact waits for `settling`.
  initial: 'proving',
  states: {
    proving: {
      on: {
        'walletProof.verifying': { target: 'committing' },
        'wallet.linked': {
          guard: ({ context, event }) => !sameAddress(event.address, context.walletTarget),
          target: '#profile.settling',
          actions: 'noteWalletIntent',
        },
        'wallet.unlinked': { target: '#profile.settling', actions: 'noteWalletIntent' },
      },
    },
    committing: {},
  },
  invoke: {
    id: 'walletProof',
    src: 'walletProof',
    input: ({ context }) => ({ address: context.walletTarget ?? '' }),
    onDone: [
      // Refused or failed: the proof has said why.
      { guard: ({ event }) => event.output === null, target: 'settling' },
      {
        target: 'updatingMetadata',
        actions: [
          // Before the row is replaced: did the profile hold a wallet until now?
          {
            type: 'showToast',
            params: ({ context }) => {
              const address = context.walletTarget ?? '';
              return context.justCreated || !context.profile?.wallet_address
                ? {
                    title: profileCopy.createdAndLinked,
                    description: profileCopy.createdAndLinkedDescription(address),
                  }
                : {
                    title: profileCopy.walletUpdated,
                    description: profileCopy.walletUpdatedDescription(address),
                  };
            },
          },
          assign({
            profile: ({ context, event }) => event.output?.profile ?? context.profile,
            justCreated: false,
            metadataPatch: ({ context }) => ({ wallet_address: context.walletTarget }),
          }),
        ],
      },
    ],
  },
});

export const unlinkingWalletState = profileSetup.createStateConfig({
  invoke: {
    id: 'clearWallet',
    src: 'clearWallet',
    input: ({ context }) => ({ userId: context.user.id }),
    onDone: {
      target: 'updatingMetadata',
      actions: [
        {
          type: 'showToast',
          params: {
            title: profileCopy.walletUpdated,
            description: profileCopy.walletUpdatedDescription(null),
          },
        },
        assign({ profile: ({ event }) => event.output, metadataPatch: { wallet_address: null } }),
      ],
    },
    onError: {
      target: 'settling',
      actions: failed(profileCopy.profileSyncError),
    },
  },
});

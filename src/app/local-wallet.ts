import { createPublicClient, http, type Address } from 'viem';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { localWalletMachine, type LocalWalletAnswer } from '../machines/local-wallet/local-wallet.machine.ts';
import { sealKey } from '../machines/send/send-key.ts';
import type { TakenLocalWallet } from '../machines/wallet/wallet-types.ts';
import { announceLocalWallet } from '../services/local-wallet/announce.ts';
import { createApprovalDesk } from '../services/local-wallet/approval-desk.ts';
import { fundWithGas } from '../services/local-wallet/gas.ts';
import { loadOrCreateKey, replaceKey, storedKey } from '../services/local-wallet/key-store.ts';
import { createLocalWalletProvider } from '../services/local-wallet/provider.ts';

// The local test wallet's composition, loaded when a person takes it (a build for the local chain
// only: src/config/local-wallet-build.ts). It reads or makes the key, pays the wallet its gas when
// it holds no ETH,
// announces the wallet as an extension would (EIP-6963), so the wallet service finds it for every
// request, and provides the wallet's chart: the asks reach its dialog through the approval desk,
// its key is read sealed, and replacing it loads the page again with the new wallet.

export type LocalWalletSetting = {
  window: Window;
  rpcUrl: string;
  chainId: number;
};

let taken: TakenLocalWallet | null = null;

/** The page's one local test wallet: taken once, the same one after that. */
export async function takeLocalWallet(setting: LocalWalletSetting): Promise<TakenLocalWallet> {
  if (taken) return taken;
  const storage = setting.window.localStorage;
  const { key } = loadOrCreateKey(storage);
  const desk = createApprovalDesk();
  const provider = createLocalWalletProvider({
    rpcUrl: setting.rpcUrl,
    chainId: setting.chainId,
    privateKey: key,
    approve: desk.approve,
    connected: true,
  });
  // A wallet without ETH gets its gas: a new one, one whose first funding failed, or one the
  // chain no longer knows after `npm start -- --fresh`.
  const node = createPublicClient({ transport: http(setting.rpcUrl) });
  if ((await node.getBalance({ address: provider.address as Address })) === 0n) {
    await fundWithGas(node, provider.address as Address);
  }
  announceLocalWallet(setting.window, provider, setting.window.crypto.randomUUID());

  const logic = localWalletMachine.provide({
    actors: {
      approvals: fromCallback<EventObject>(({ sendBack, receive }) => {
        receive((event) => {
          const answer = event as LocalWalletAnswer;
          desk.answer(answer.id, answer.approved);
        });
        return desk.listen((ask) => sendBack({ type: 'localWallet.asked', ...ask }));
      }),
      readKey: fromPromise(async () => {
        const stored = storedKey(storage);
        if (!stored) throw new Error('This browser holds no local test wallet key.');
        return sealKey(stored);
      }),
      replaceWallet: fromPromise<unknown>(async () => {
        replaceKey(storage);
        setting.window.location.reload();
        return null;
      }),
    },
  });
  taken = { logic, address: provider.address };
  return taken;
}

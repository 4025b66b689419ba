import { createContext, Suspense, useContext, type ComponentType } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LocalWalletLogic } from '../../machines/wallet/wallet-types.ts';
import { useChildSelector } from '../portal-context.tsx';

// Where the local test wallet's views go: its offer under Connect Wallet, its approval dialog (on
// every page, since a tab may ask for a signature or a transaction) and its menu under the
// connected address. The composition root hands the views in, lazily loaded, in a build for the
// local chain only (src/main.tsx): a build for any other chain has none of their code, and the
// entry only these few lines.

type Actor = ActorRefFrom<LocalWalletLogic> | null;

export type LocalWalletViews = Record<'Offer' | 'Dialog' | 'Menu', ComponentType<{ actor: Actor }>>;

const ViewsContext = createContext<LocalWalletViews | null>(null);

export const LocalWalletViewsProvider = ViewsContext.Provider;

/**
 * One of the views: the offer once no wallet was found, the dialog and the menu once the person
 * took the wallet. None is in the first screen's HTML, and while the page hydrates these read the
 * portal that HTML was rendered from (still looking for a wallet), so hydration renders none.
 */
export function LocalWalletSlot({ part }: { part: keyof LocalWalletViews }) {
  const View = useContext(ViewsContext)?.[part];
  const actor = useChildSelector('wallet', (snapshot) => snapshot.context.localWallet);
  const offered = useChildSelector(
    'wallet',
    (snapshot) => snapshot.context.offersLocalWallet && snapshot.matches('noProvider'),
  );
  if (!View || (part === 'Offer' ? !offered : !actor)) return null;
  return (
    <Suspense fallback={null}>
      <View actor={actor} />
    </Suspense>
  );
}

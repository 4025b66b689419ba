import { lazy } from 'react';
import styled from 'styled-components';
import { portalCopy, walletCopy } from '../../copy/index.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { useChild, useChildSelector, usePortalSelector } from '../portal-context.tsx';
import { LocalWalletSlot } from '../local-wallet/slots.tsx';
import { lateView } from './late-views-loader.ts';
import { WalletAddress } from './WalletAddress.tsx';
import { theme } from '../theme.ts';

// Loaded apart from the entry with the send form (late-views-loader.ts): the panel is never on a
// visitor's first screen. The portal screen's one Suspense boundary waits for them all.
const Balances = lazy(lateView('Balances'));
const WebhookDemo = lazy(lateView('WebhookDemo'));
const AccountLine = lazy(lateView('AccountLine'));

// The wallet panel (docs/product.md#wallet-panel): the logged-in line, 'Connect Your Wallet' for a
// signed-in user without a wallet (once loading has finished), the connected
// address with copy and disconnect, the two balances and the webhook demo.
export function WalletPanel() {
  const wallet = useChild('wallet');
  const signedIn = usePortalSelector((snapshot) => snapshot.context.user !== null);
  const address = usePortalSelector((snapshot) => snapshot.context.walletAddress);
  const loaded = usePortalSelector((snapshot) => snapshot.matches({ boot: 'ready' }));
  const busy = useChildSelector('wallet', (snapshot) => snapshot.hasTag('connecting'));

  return (
    <Card aria-labelledby="wallet-panel-title">
      <Title id="wallet-panel-title">{portalCopy.walletTitle}</Title>
      <Stack>
        {signedIn ? <AccountLine /> : null}
        {address ? <WalletAddress address={address} /> : null}
        {address ? <LocalWalletSlot part="Menu" /> : null}
        {!address && signedIn ? (
          // Its place is kept while loading finishes, unseen, so the balances below never move down.
          <ConnectButton
            type="button"
            $block
            $unseen={!loaded}
            disabled={busy || !loaded}
            aria-busy={busy}
            onClick={() => wallet.send({ type: 'wallet.connect' })}
          >
            {busy ? walletCopy.connecting : walletCopy.connectYourWallet}
          </ConnectButton>
        ) : null}
        <Balances />
        <WebhookDemo />
      </Stack>
    </Card>
  );
}

const Title = styled.h2`
  margin: 0 0 ${theme.space(4)};
  font-size: 1.2rem;
`;

const Stack = styled.div`
  display: grid;
  gap: ${theme.space(5)};
`;

/** A button that can keep its place in the layout while not there to be seen or pressed. */
const ConnectButton = styled(Button)<{ $unseen: boolean }>`
  visibility: ${({ $unseen }) => ($unseen ? 'hidden' : 'visible')};
`;

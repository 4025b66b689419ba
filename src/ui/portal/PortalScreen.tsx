import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { appCopy } from '../../copy/index.ts';
import { usePortalSelector } from '../portal-context.tsx';
import { AuthButtons } from './AuthButtons.tsx';
import { NetworkBanner } from './NetworkBanner.tsx';
import { lateView } from './late-views-loader.ts';
import { VisitorPrompt } from './VisitorPrompt.tsx';
import { WalletPanel } from './WalletPanel.tsx';
import { theme } from '../theme.ts';

// The portal screen (docs/product.md#portal-screen): the heading with Login / Sign Up or Logout; with
// neither a wallet nor a user, the visitor prompt; otherwise the wallet card, and with a wallet the
// send form beside it (parts of both load apart from the entry, see late-views-loader.ts).
const SendForm = lazy(lateView('SendForm'));

export function PortalScreen() {
  const hasUser = usePortalSelector((snapshot) => snapshot.context.user !== null);
  const hasWallet = usePortalSelector((snapshot) => snapshot.context.walletAddress !== null);

  return (
    <Screen aria-labelledby="portal-heading">
      <Top>
        <Heading id="portal-heading">{appCopy.heading}</Heading>
        <AuthButtons />
      </Top>
      <NetworkBanner />
      {hasUser || hasWallet ? (
        // One boundary for the panel's late views and the send form: they appear together, once their
        // chunk is in, so nothing on screen is pushed about by a part that came a moment later.
        <Suspense fallback={null}>
          <Columns $two={hasWallet}>
            <WalletPanel />
            {hasWallet ? <SendForm /> : null}
          </Columns>
        </Suspense>
      ) : (
        <VisitorPrompt />
      )}
    </Screen>
  );
}

const Screen = styled.section`
  display: grid;
  gap: ${theme.space(6)};
  ${theme.phone} {
    gap: ${theme.space(4)};
  }
`;

const Top = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(3)};
`;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.5rem, 1.1rem + 1.6vw, 2.1rem);
  letter-spacing: -0.01em;
`;

const Columns = styled.div<{ $two: boolean }>`
  display: grid;
  gap: ${theme.space(6)};
  align-items: start;
  grid-template-columns: ${({ $two }) => ($two ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 560px)')};
  @media (max-width: 860px) {
    grid-template-columns: minmax(0, 1fr);
    gap: ${theme.space(4)};
  }
`;

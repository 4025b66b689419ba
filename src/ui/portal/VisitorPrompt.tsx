import styled from 'styled-components';
import { appCopy, walletCopy } from '../../copy/index.ts';
import { Button } from '../common/Button.tsx';
import { Card } from '../common/Card.tsx';
import { LocalWalletSlot } from '../local-wallet/slots.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// With no wallet and no user (docs/product.md#visitor-prompt), the prompt and a Connect Wallet
// button ('Connecting Wallet...' while the wallet is discovering, reconnecting or connecting), and
// in a build for the local chain the offer of the local test wallet under it.
export function VisitorPrompt() {
  const wallet = useChild('wallet');
  const busy = useChildSelector('wallet', (snapshot) => snapshot.hasTag('connecting'));

  return (
    <Prompt>
      <Text>{appCopy.visitorPrompt}</Text>
      <Button
        type="button"
        disabled={busy}
        aria-busy={busy}
        onClick={() => wallet.send({ type: 'wallet.connect' })}
      >
        {busy ? walletCopy.connectingWallet : walletCopy.connectWallet}
      </Button>
      <LocalWalletSlot part="Offer" />
    </Prompt>
  );
}

const Prompt = styled(Card)`
  display: grid;
  justify-items: center;
  gap: ${theme.space(4)};
  max-width: 560px;
  width: 100%;
  margin: 0 auto;
  text-align: center;
`;

const Text = styled.p`
  margin: 0;
  font-size: 1.05rem;
  color: ${theme.color.textMuted};
`;

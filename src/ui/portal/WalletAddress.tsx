import styled from 'styled-components';
import { portalCopy, shortAddress, walletCopy } from '../../copy/index.ts';
import { Button, IconButton } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { useSettings } from '../settings-context.tsx';
import { CopyIcon, DisconnectIcon } from './icons.tsx';
import { VisuallyHidden } from '../common/VisuallyHidden.tsx';
import { theme } from '../theme.ts';

// The wallet's address (docs/product.md#wallet-panel), shortened 6 + 4 (the full one on
// hover and for screen readers), a copy button and a disconnect button; below it, with a DDEX
// contract configured, 'Add DDEX to wallet', which the wallet machine takes only on the portal's
// chain and while no such request is open.
export function WalletAddress({ address }: { address: string }) {
  const wallet = useChild('wallet');
  const { tokenConfigured } = useSettings();
  const canWatch = useChildSelector('wallet', (snapshot) => snapshot.can({ type: 'wallet.watchToken' }));

  return (
    <>
      <Row>
        <Text>
          <Label>{portalCopy.connectedAddress}</Label>
          <Address title={address}>
            <span aria-hidden="true">{shortAddress(address)}</span>
            <VisuallyHidden>{address}</VisuallyHidden>
          </Address>
        </Text>
        <Actions>
          <IconButton
            type="button"
            aria-label={portalCopy.copyAddress}
            title={portalCopy.copyAddress}
            onClick={() => wallet.send({ type: 'wallet.copy' })}
          >
            <CopyIcon />
          </IconButton>
          <Danger
            type="button"
            aria-label={portalCopy.disconnectWallet}
            title={portalCopy.disconnectWallet}
            onClick={() => wallet.send({ type: 'wallet.disconnect' })}
          >
            <DisconnectIcon />
          </Danger>
        </Actions>
      </Row>
      {tokenConfigured ? (
        <Button
          type="button"
          $variant="secondary"
          disabled={!canWatch}
          onClick={() => wallet.send({ type: 'wallet.watchToken' })}
        >
          {walletCopy.addToken}
        </Button>
      ) : null}
    </>
  );
}

const Row = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(3)};
  padding: ${theme.space(2)} ${theme.space(2)} ${theme.space(2)} ${theme.space(4)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
  border: 1px solid ${theme.color.border};
`;

const Text = styled.p`
  display: grid;
  margin: 0;
  min-width: 0;
`;

const Label = styled.span`
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

const Address = styled.span`
  font-family: ${theme.font.mono};
  font-size: 1.05rem;
  font-weight: 600;
`;

const Actions = styled.div`
  display: flex;
  flex: none;
  gap: ${theme.space(1)};
`;

const Danger = styled(IconButton)`
  color: ${theme.color.danger};
`;

import styled from 'styled-components';
import { portalCopy, walletCopy } from '../../copy/index.ts';
import { Button } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { useSettings } from '../settings-context.tsx';
import { WarningIcon } from './icons.tsx';
import { theme } from '../theme.ts';

// The wallet is connected on another chain than the portal's: say so and
// offer the switch (disabled while the wallet is asked to switch).
export function NetworkBanner() {
  const wallet = useChild('wallet');
  const { chainName } = useSettings();
  const wrong = useChildSelector(
    'wallet',
    (snapshot) =>
      snapshot.matches({ connected: { network: 'wrongNetwork' } }) ||
      snapshot.matches({ connected: { network: 'switching' } }),
  );
  const switching = useChildSelector('wallet', (snapshot) =>
    snapshot.matches({ connected: { network: 'switching' } }),
  );

  if (!wrong) return null;
  return (
    <Banner role="alert" aria-label={portalCopy.wrongNetworkTitle}>
      <Icon>
        <WarningIcon size={22} />
      </Icon>
      <Text>{walletCopy.wrongNetwork(chainName)}</Text>
      <Button
        type="button"
        disabled={switching}
        aria-busy={switching}
        onClick={() => wallet.send({ type: 'wallet.switchNetwork' })}
      >
        {walletCopy.switchNetwork}
      </Button>
    </Banner>
  );
}

const Banner = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space(3)};
  padding: ${theme.space(3)} ${theme.space(4)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  border: 1px solid currentColor;
`;

const Icon = styled.span`
  display: inline-flex;
  flex: none;
`;

const Text = styled.p`
  flex: 1 1 240px;
  margin: 0;
  font-weight: 600;
`;

import styled from 'styled-components';
import { localWalletOfferCopy } from '../../copy/local-wallet-offer.ts';
import { LinkButton } from '../dialogs/parts.tsx';
import { useChild } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// The visitor prompt's line under Connect Wallet, in a build for the local chain, once no wallet
// was found (its slot, slots.tsx, shows it only then): the same offer as the 'MetaMask is not
// installed' toast's action.
export default function LocalWalletOffer() {
  const wallet = useChild('wallet');
  return (
    <Offer>
      {localWalletOfferCopy.visitorLine}{' '}
      <LinkButton type="button" onClick={() => wallet.send({ type: 'wallet.useLocalWallet' })}>
        {localWalletOfferCopy.offer}
      </LinkButton>
    </Offer>
  );
}

const Offer = styled.p`
  margin: 0;
  font-size: 0.9rem;
  color: ${theme.color.textMuted};
`;

import styled from 'styled-components';
import { shortAddress } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { useProfile, useSessionSelector } from '../../portal-context.tsx';
import { VisuallyHidden } from '../../common/VisuallyHidden.tsx';
import { Tag } from '../parts.tsx';
import { theme } from '../../theme.ts';

// The profile's wallet in one line, and whether it was proven (docs/product.md#wallet-sync):
// a wallet is linked only with a signed proof, so a verified tag is the rule, and a wallet
// without one was written before proofs existed. Nothing while the profile holds no wallet.
export function ProfileWallet() {
  const profile = useProfile();
  // A proof asks the wallet, which may take the user a while: say why the form waits.
  const proving = useSessionSelector('profile', (snapshot) => snapshot.matches('linkingWallet'), false);
  const address = profile?.wallet_address;
  if (proving) return <Line role="status">{dialogCopy.profile.walletProving}</Line>;
  if (!address) return null;
  const verified = !!profile.wallet_verified_at;
  return (
    <Line>
      <Label>{dialogCopy.profile.wallet}</Label>
      <Address title={address}>
        <span aria-hidden="true">{shortAddress(address)}</span>
        <VisuallyHidden>{address}</VisuallyHidden>
      </Address>
      <Tag $tone={verified ? 'accent' : 'muted'}>
        {verified ? dialogCopy.profile.walletVerified : dialogCopy.profile.walletNotVerified}
      </Tag>
    </Line>
  );
}

const Line = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space(2)};
  margin: ${theme.space(3)} 0;
`;

const Label = styled.span`
  color: ${theme.color.textMuted};
`;

const Address = styled.span`
  font-family: ${theme.font.mono};
`;

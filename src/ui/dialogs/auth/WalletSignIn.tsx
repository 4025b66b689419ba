import { useId } from 'react';
import styled from 'styled-components';
import { authCopy, shortAddress } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { theme } from '../../theme.ts';

// The auth dialog's third way in (docs/product.md#auth-dialog): Sign in with
// Ethereum through the connected wallet. Without a connected wallet the button
// is disabled and the hint says why. The shortened address is shown in the
// button but kept out of its name, which stays 'Continue with wallet'; the
// hint, read as its description, names the address.

type Props = {
  /** The connected wallet's address; null when none is connected. */
  address: string | null;
  /** The wallet sign-in runs. */
  busy: boolean;
  /** Another request of the dialog runs. */
  blocked: boolean;
  onSignIn: () => void;
};

export function WalletSignIn({ address, busy, blocked, onSignIn }: Props) {
  const hintId = useId();
  const waiting = busy || blocked;
  return (
    <Section>
      <Divider>{dialogCopy.auth.or}</Divider>
      <Wide
        type="button"
        $variant="secondary"
        $block
        disabled={address === null}
        aria-disabled={(address !== null && waiting) || undefined}
        aria-describedby={hintId}
        onClick={() => {
          if (!waiting) onSignIn();
        }}
      >
        {busy ? dialogCopy.auth.walletSigningIn : authCopy.continueWithWallet}
        {address && !busy ? <Address aria-hidden="true">{shortAddress(address)}</Address> : null}
      </Wide>
      <Hint id={hintId}>{address ? dialogCopy.auth.walletHint(address) : dialogCopy.auth.noWalletHint}</Hint>
    </Section>
  );
}

const Section = styled.div`
  margin-top: ${theme.space(4)};
`;

const Divider = styled.p`
  display: flex;
  align-items: center;
  gap: ${theme.space(3)};
  margin: 0 0 ${theme.space(3)};
  color: ${theme.color.textMuted};
  font-size: 0.875rem;

  &::before,
  &::after {
    content: '';
    flex: 1;
    border-top: 1px solid ${theme.color.border};
  }
`;

const Wide = styled(Button)`
  &[aria-disabled='true'] {
    opacity: 0.7;
    cursor: progress;
  }
`;

const Address = styled.span`
  font-family: ${theme.font.mono};
  font-size: 0.875rem;
`;

const Hint = styled.p`
  margin: ${theme.space(2)} 0 0;
  color: ${theme.color.textMuted};
  font-size: 0.875rem;
  text-align: center;
`;

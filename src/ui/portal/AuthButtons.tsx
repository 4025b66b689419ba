import styled from 'styled-components';
import { authCopy } from '../../copy/index.ts';
import { Button } from '../common/Button.tsx';
import { useChild, useChildSelector, usePortalSelector } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// Login and Sign Up when logged out, Logout when logged in (docs/product.md#portal-screen).
export function AuthButtons() {
  const auth = useChild('auth');
  const signedIn = usePortalSelector((snapshot) => snapshot.context.user !== null);
  const signingOut = useChildSelector('auth', (snapshot) => snapshot.matches({ signOut: 'requesting' }));

  if (signedIn) {
    return (
      <Row>
        <Button
          type="button"
          $variant="secondary"
          disabled={signingOut}
          aria-busy={signingOut}
          onClick={() => auth.send({ type: 'auth.signOut' })}
        >
          {authCopy.logout}
        </Button>
      </Row>
    );
  }
  return (
    <Row>
      <Button
        type="button"
        $variant="secondary"
        onClick={() => auth.send({ type: 'auth.open', mode: 'login' })}
      >
        {authCopy.login}
      </Button>
      <Button type="button" onClick={() => auth.send({ type: 'auth.open', mode: 'signup' })}>
        {authCopy.signUp}
      </Button>
    </Row>
  );
}

// On a phone the row has a line of its own under the heading, whichever buttons it holds: Logout
// alone would fit beside the heading where Login and Sign Up do not, and the screen below would
// move up as a returning user's session is read.
const Row = styled.div`
  display: flex;
  gap: ${theme.space(2)};
  ${theme.phone} {
    flex-basis: 100%;
  }
`;

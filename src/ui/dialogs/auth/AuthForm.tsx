import type { FormEvent } from 'react';
import styled from 'styled-components';
import { authCopy } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { Field } from '../../common/Field.tsx';
import { LinkButton } from '../parts.tsx';
import { WalletSignIn } from './WalletSignIn.tsx';
import { theme } from '../../theme.ts';

// The email and password form of both modes, and the wallet sign-in below it.
// Uncontrolled: the values are read on submit, and the password is wiped from
// the input as soon as it is sent. While a request runs the inputs are
// read-only and its button says so; the buttons stay focusable (aria-disabled)
// so focus does not fall out of the dialog.

type Props = {
  mode: 'login' | 'signup';
  email: string;
  submitting: boolean;
  /** The wallet sign-in runs. */
  walletBusy: boolean;
  /** The connected wallet, which the wallet sign-in needs. */
  walletAddress: string | null;
  onSubmit: (credentials: { email: string; password: string }) => void;
  onToggle: () => void;
  onWalletSignIn: () => void;
  /** The login form's way to a forgotten password, with the email typed so far. */
  onForgotPassword: (email: string) => void;
};

export function AuthForm(props: Props) {
  const { mode, email, walletBusy, onSubmit, onToggle } = props;
  const submitting = props.submitting || walletBusy;
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    onSubmit({ email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') });
    const password = form.elements.namedItem('password');
    if (password instanceof HTMLInputElement) password.value = '';
  };

  const signup = mode === 'signup';
  return (
    <form onSubmit={handleSubmit} aria-busy={submitting}>
      <Field
        label={dialogCopy.auth.email}
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={email}
        readOnly={submitting}
        autoFocus
      />
      <Field
        label={dialogCopy.auth.password}
        name="password"
        type="password"
        autoComplete={signup ? 'new-password' : 'current-password'}
        required
        readOnly={submitting}
      />
      {signup ? null : (
        <Forgot>
          <LinkButton
            type="button"
            disabled={submitting}
            onClick={(event) => {
              const email = event.currentTarget.form?.elements.namedItem('email');
              props.onForgotPassword(email instanceof HTMLInputElement ? email.value : '');
            }}
          >
            {authCopy.forgotPassword}
          </LinkButton>
        </Forgot>
      )}
      <Submit type="submit" $block aria-disabled={submitting || undefined}>
        {props.submitting
          ? signup
            ? dialogCopy.auth.signingUp
            : dialogCopy.auth.loggingIn
          : signup
            ? authCopy.signUp
            : authCopy.login}
      </Submit>
      <Toggle>
        {signup ? dialogCopy.auth.toLogin : dialogCopy.auth.toSignUp}{' '}
        <LinkButton type="button" onClick={onToggle} disabled={submitting}>
          {signup ? authCopy.login : authCopy.signUp}
        </LinkButton>
      </Toggle>
      <WalletSignIn
        address={props.walletAddress}
        busy={walletBusy}
        blocked={props.submitting}
        onSignIn={props.onWalletSignIn}
      />
    </form>
  );
}

const Submit = styled(Button)`
  &[aria-disabled='true'] {
    opacity: 0.7;
    cursor: progress;
  }
`;

const Forgot = styled.p`
  margin: 0 0 ${theme.space(4)};
  text-align: right;
  font-size: 0.875rem;
`;

const Toggle = styled.p`
  margin: ${theme.space(4)} 0 0;
  text-align: center;
  color: ${theme.color.textMuted};
`;

import type { FormEvent } from 'react';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { Field } from '../../common/Field.tsx';
import { Actions, LinkButton, StatusText } from '../parts.tsx';
import { CheckEmail } from './CheckEmail.tsx';

// The forgotten-password form: the email the recovery link goes to, and the way back to the login.
// While the request runs the input is read-only and the button says so. An empty email is the
// machine's to refuse, in the portal's words, so the input is not `required`.

type Props = {
  email: string;
  sending: boolean;
  onSend: (email: string) => void;
  onBack: () => void;
};

export function ForgotPassword({ email, sending, onSend, onBack }: Props) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!sending) onSend(String(new FormData(event.currentTarget).get('email') ?? ''));
  };
  return (
    <form onSubmit={handleSubmit} aria-busy={sending}>
      <StatusText>{dialogCopy.auth.forgotHint}</StatusText>
      <Field
        label={dialogCopy.auth.email}
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={email}
        readOnly={sending}
        autoFocus
      />
      <Button type="submit" $block aria-disabled={sending || undefined}>
        {sending ? dialogCopy.auth.sendingLink : dialogCopy.auth.sendLink}
      </Button>
      <Actions>
        <LinkButton type="button" onClick={onBack} disabled={sending}>
          {dialogCopy.auth.backToLogin}
        </LinkButton>
      </Actions>
    </form>
  );
}

/** After the request: where the link went, in words true whether or not the address has an account. */
export function ResetSent({ email, onOk }: { email: string; onOk: () => void }) {
  return (
    <>
      <StatusText role="status">{dialogCopy.auth.resetSent(email)}</StatusText>
      <CheckEmail onOk={onOk} />
    </>
  );
}

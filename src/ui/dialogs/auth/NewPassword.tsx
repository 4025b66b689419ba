import type { FormEvent } from 'react';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { Field } from '../../common/Field.tsx';
import { StatusText } from '../parts.tsx';

// The recovery link's form: the new password twice. Uncontrolled like the login form: the values
// are read on submit and wiped from the inputs as soon as they are sent. An empty or mismatched
// entry is the machine's to refuse, in the portal's words, so the inputs are not `required`.

type Props = {
  saving: boolean;
  onSave: (passwords: { password: string; repeatedPassword: string }) => void;
};

export function NewPassword({ saving, onSave }: Props) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    onSave({
      password: String(data.get('password') ?? ''),
      repeatedPassword: String(data.get('repeatedPassword') ?? ''),
    });
    for (const name of ['password', 'repeatedPassword']) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = '';
    }
  };
  return (
    <form onSubmit={handleSubmit} aria-busy={saving}>
      <StatusText>{dialogCopy.auth.recoveryHint}</StatusText>
      <Field
        label={dialogCopy.auth.newPassword}
        name="password"
        type="password"
        autoComplete="new-password"
        readOnly={saving}
        autoFocus
      />
      <Field
        label={dialogCopy.auth.repeatPassword}
        name="repeatedPassword"
        type="password"
        autoComplete="new-password"
        readOnly={saving}
      />
      <Button type="submit" $block aria-disabled={saving || undefined}>
        {saving ? dialogCopy.auth.savingPassword : dialogCopy.auth.savePassword}
      </Button>
    </form>
  );
}

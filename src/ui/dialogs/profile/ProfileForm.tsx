import type { FormEvent } from 'react';
import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import type { ProfileEdits } from '../../../machines/profile/profile.machine.ts';
import { Button } from '../../common/Button.tsx';
import { Field } from '../../common/Field.tsx';
import { useSessionChild, useSessionSelector } from '../../portal-context.tsx';
import { Actions } from '../parts.tsx';

// Username, full name and website, prefilled from what the user last submitted
// (kept by the machine until a save succeeds) or else the saved profile. The
// inputs are uncontrolled; they are remounted only when the saved values change,
// so a refused or failed save leaves what was typed in place.

const fields = ['username', 'full_name', 'website'] as const satisfies readonly (keyof ProfileEdits)[];

const EMPTY: ProfileEdits = { username: '', full_name: '', website: '' };

export function ProfileForm() {
  const profile = useSessionChild('profile');
  const values = useSessionSelector(
    'profile',
    (snapshot): ProfileEdits => {
      const { draft, profile: saved } = snapshot.context;
      return {
        username: draft?.username ?? saved?.username ?? '',
        full_name: draft?.full_name ?? saved?.full_name ?? '',
        website: draft?.website ?? saved?.website ?? '',
      };
    },
    EMPTY,
    (a, b) => fields.every((name) => a[name] === b[name]),
  );
  const savedKey = useSessionSelector(
    'profile',
    (snapshot) => {
      const saved = snapshot.context.profile;
      return JSON.stringify([saved?.id, saved?.username, saved?.full_name, saved?.website]);
    },
    '',
  );
  const ready = useSessionSelector('profile', (snapshot) => snapshot.matches('ready'), false);
  const saving = useSessionSelector('profile', (snapshot) => snapshot.matches('saving'), false);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    const data = new FormData(event.currentTarget);
    const read = (name: keyof ProfileEdits) => String(data.get(name) ?? '');
    profile?.send({
      type: 'profile.save',
      username: read('username'),
      full_name: read('full_name'),
      website: read('website'),
    });
  };

  return (
    <form key={savedKey} onSubmit={save} aria-busy={saving}>
      <Field
        label={dialogCopy.profile.username}
        name="username"
        autoComplete="username"
        defaultValue={values.username}
      />
      <Field
        label={dialogCopy.profile.fullName}
        name="full_name"
        autoComplete="name"
        defaultValue={values.full_name}
      />
      <Field
        label={dialogCopy.profile.website}
        name="website"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://"
        hint={dialogCopy.profile.websiteHint}
        defaultValue={values.website}
      />
      <Actions>
        <Save type="submit" aria-disabled={!ready || undefined}>
          {saving ? dialogCopy.profile.saving : dialogCopy.profile.save}
        </Save>
      </Actions>
    </form>
  );
}

const Save = styled(Button)`
  min-width: 120px;
  &[aria-disabled='true'] {
    opacity: 0.7;
    cursor: progress;
  }
`;

import type { ChangeEvent } from 'react';
import { useId } from 'react';
import styled from 'styled-components';
import { profileCopy } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { useSessionChild, useSessionSelector } from '../../portal-context.tsx';
import { Tag } from '../parts.tsx';
import { AvatarPlaceholder } from './AvatarPlaceholder.tsx';
import { theme } from '../../theme.ts';

// The avatar preview and its file input. A chosen file goes to the profile
// machine at once (it uploads it and keeps the URL as a draft); the preview
// shows that draft until Save persists it, else the saved avatar.
export function AvatarPicker() {
  const profile = useSessionChild('profile');
  const id = useId();
  const saved = useSessionSelector(
    'profile',
    (snapshot) => snapshot.context.profile?.avatar_url ?? null,
    null,
  );
  const draft = useSessionSelector('profile', (snapshot) => snapshot.context.draftAvatarUrl, null);
  const uploading = useSessionSelector('profile', (snapshot) => snapshot.matches('uploadingAvatar'), false);
  // The profile takes an upload only when idle: not while it loads, saves (and then copies the
  // saved fields to the account), uploads, or asks the wallet for a proof. A file chosen then
  // would be dropped without a word, so the picker waits with the rest of the form.
  const ready = useSessionSelector('profile', (snapshot) => snapshot.matches('ready'), false);
  const src = draft ?? saved;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    profile?.send({
      type: 'profile.uploadAvatar',
      file: { name: file.name, type: file.type, size: file.size, data: file },
    });
    // The same file may be chosen again after a failed upload.
    input.value = '';
  };

  return (
    <Row>
      <Preview>{src ? <img src={src} alt={dialogCopy.profile.avatarAlt} /> : <AvatarPlaceholder />}</Preview>
      <Picker>
        <label htmlFor={id}>{dialogCopy.profile.chooseAvatar}</label>
        <input
          id={id}
          type="file"
          accept={profileCopy.avatarTypes.join(',')}
          onChange={choose}
          disabled={!ready}
          aria-describedby={`${id}-hint`}
        />
        <Hint id={`${id}-hint`}>{dialogCopy.profile.avatarHint}</Hint>
        <div role="status">
          {uploading ? (
            <Tag>{dialogCopy.profile.uploading}</Tag>
          ) : draft ? (
            <Tag $tone="accent">{dialogCopy.profile.newAvatar}</Tag>
          ) : null}
        </div>
      </Picker>
    </Row>
  );
}

const Row = styled.div`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space(4)};
  margin-bottom: ${theme.space(4)};
  ${theme.phone} {
    flex-direction: column;
    align-items: center;
  }
`;

const Preview = styled.div`
  flex: none;
  width: 88px;
  height: 88px;
  border-radius: 50%;
  overflow: hidden;
  border: 1px solid ${theme.color.border};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.textMuted};
  display: grid;
  place-items: center;
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

const Picker = styled.div`
  display: grid;
  /* A file input's own minimum width would otherwise widen the column past a phone screen. */
  grid-template-columns: minmax(0, 1fr);
  gap: ${theme.space(1)};
  min-width: 0;
  width: 100%;
  label {
    font-weight: 600;
    font-size: 0.95rem;
  }
  input {
    width: 100%;
    font: inherit;
    color: ${theme.color.text};
  }
  input::file-selector-button {
    margin-right: ${theme.space(2)};
    padding: ${theme.space(1)} ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.sm};
    background: ${theme.color.surfaceAlt};
    color: ${theme.color.text};
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }
  [role='status'] {
    min-height: 1.5em;
  }
`;

const Hint = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

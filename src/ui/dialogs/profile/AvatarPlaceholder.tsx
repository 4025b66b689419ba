import { dialogCopy } from '../../../copy/dialogs.ts';

/** A person's outline, shown while the profile has no avatar. */
export function AvatarPlaceholder() {
  return (
    <svg width="48" height="48" viewBox="0 0 24 24" role="img" aria-label={dialogCopy.profile.noAvatar}>
      <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M4 20c0-4 3.6-6 8-6s8 2 8 6" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}

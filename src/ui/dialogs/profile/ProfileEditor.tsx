import { dialogCopy } from '../../../copy/index.ts';
import { useChildSelector } from '../../portal-context.tsx';
import { StatusText } from '../parts.tsx';
import { AvatarPicker } from './AvatarPicker.tsx';
import { ProfileForm } from './ProfileForm.tsx';

// The dialog's body: waits for the profile, then the avatar and the fields.
export function ProfileEditor() {
  const loaded = useChildSelector('profile', (snapshot) => snapshot.context.profile !== null);
  const failed = useChildSelector('profile', (snapshot) => snapshot.matches({ signedIn: 'failed' }));

  if (!loaded) {
    return failed ? (
      <StatusText role="alert">{dialogCopy.profile.unavailable}</StatusText>
    ) : (
      <StatusText role="status">{dialogCopy.profile.loading}</StatusText>
    );
  }
  return (
    <>
      <AvatarPicker />
      <ProfileForm />
    </>
  );
}

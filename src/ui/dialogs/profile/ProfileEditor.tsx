import { dialogCopy } from '../../../copy/dialogs.ts';
import { useSessionSelector } from '../../portal-context.tsx';
import { StatusText } from '../parts.tsx';
import { AvatarPicker } from './AvatarPicker.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { ProfileNotifications } from './ProfileNotifications.tsx';
import { ProfileWallet } from './ProfileWallet.tsx';

// The dialog's body: waits for the profile, then the avatar, the linked wallet, the fields and the
// notification choices.
export function ProfileEditor() {
  const loaded = useSessionSelector('profile', (snapshot) => snapshot.context.profile !== null, false);
  const failed = useSessionSelector('profile', (snapshot) => snapshot.context.loadFailed, false);

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
      <ProfileWallet />
      <ProfileForm />
      <ProfileNotifications />
    </>
  );
}

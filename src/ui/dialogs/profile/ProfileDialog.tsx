import { dialogCopy } from '../../../copy/dialogs.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { useDialog } from '../useDialog.ts';
import { ProfileEditor } from './ProfileEditor.tsx';

// Edit profile (docs/product.md#profile-dialog): opened from the user menu; closing it without
// saving drops the unsaved edits and any uploaded avatar (the root tells the
// profile machine).
export function ProfileDialog() {
  const { open, close } = useDialog('profile');
  return (
    <Dialog open={open} onClose={close} title={dialogCopy.profile.title}>
      <ProfileEditor />
    </Dialog>
  );
}

import { AuthDialog } from './auth/AuthDialog.tsx';
import { NotificationsDialog } from './notifications/NotificationsDialog.tsx';
import { ProfileDialog } from './profile/ProfileDialog.tsx';
import { ApiKeysDialog } from './soon/ApiKeysDialog.tsx';
import { SecurityDialog } from './soon/SecurityDialog.tsx';
import { TransactionsDialog } from './transactions/TransactionsDialog.tsx';

// Every dialog of the portal. Each decides from its machine whether it is open:
// the auth dialog from the auth machine's modal, the others from `dialogs`.
export function Dialogs() {
  return (
    <>
      <AuthDialog />
      <ProfileDialog />
      <NotificationsDialog />
      <TransactionsDialog />
      <ApiKeysDialog />
      <SecurityDialog />
    </>
  );
}

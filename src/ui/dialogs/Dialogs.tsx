import { lazy } from 'react';
import { MountOnceOpened } from '../common/MountOnceOpened.tsx';
import { useChildSelector } from '../portal-context.tsx';

// Every dialog of the portal. Each decides from its machine whether it is open
// (the auth dialog from the auth machine's modal, the others from `dialogs`);
// this only keeps their code, and Radix's, out of the first download until the
// first time each one opens.

const AuthDialog = lazy(() => import('./auth/AuthDialog.tsx').then((m) => ({ default: m.AuthDialog })));
const ProfileDialog = lazy(() =>
  import('./profile/ProfileDialog.tsx').then((m) => ({ default: m.ProfileDialog })),
);
const NotificationsDialog = lazy(() =>
  import('./notifications/NotificationsDialog.tsx').then((m) => ({ default: m.NotificationsDialog })),
);
const TransactionsDialog = lazy(() =>
  import('./transactions/TransactionsDialog.tsx').then((m) => ({ default: m.TransactionsDialog })),
);
const ApiKeysDialog = lazy(() =>
  import('./soon/ApiKeysDialog.tsx').then((m) => ({ default: m.ApiKeysDialog })),
);
const UnsubscribeDialog = lazy(() =>
  import('./unsubscribe/UnsubscribeDialog.tsx').then((m) => ({ default: m.UnsubscribeDialog })),
);
const SecurityDialog = lazy(() =>
  import('./soon/SecurityDialog.tsx').then((m) => ({ default: m.SecurityDialog })),
);

export function Dialogs() {
  const authOpen = useChildSelector('auth', (snapshot) => !snapshot.matches({ modal: 'closed' }));
  const open = useChildSelector('dialogs', (snapshot) => snapshot.context.open);
  const unsubscribing = useChildSelector('unsubscribe', (snapshot) => !snapshot.matches('idle'));
  return (
    <>
      <MountOnceOpened open={authOpen}>
        <AuthDialog />
      </MountOnceOpened>
      <MountOnceOpened open={open === 'profile'}>
        <ProfileDialog />
      </MountOnceOpened>
      <MountOnceOpened open={open === 'notifications'}>
        <NotificationsDialog />
      </MountOnceOpened>
      <MountOnceOpened open={open === 'transactions'}>
        <TransactionsDialog />
      </MountOnceOpened>
      <MountOnceOpened open={open === 'apiKeys'}>
        <ApiKeysDialog />
      </MountOnceOpened>
      <MountOnceOpened open={open === 'security'}>
        <SecurityDialog />
      </MountOnceOpened>
      <MountOnceOpened open={unsubscribing}>
        <UnsubscribeDialog />
      </MountOnceOpened>
    </>
  );
}

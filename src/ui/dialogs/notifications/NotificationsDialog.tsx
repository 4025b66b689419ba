import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Button } from '../../common/Button.tsx';
import { Dialog } from '../../common/Dialog.tsx';
import { useSessionChild, useSessionSelector } from '../../portal-context.tsx';
import { Actions, StatusText } from '../parts.tsx';
import { useDialog } from '../useDialog.ts';
import type { NotificationRow } from '../../../domain/notifications.ts';
import { NotificationItem } from './NotificationItem.tsx';
import { theme } from '../../theme.ts';

// The signed-in user's 20 newest notifications, newest first (the machine's
// list). Opening the dialog marks every unread one read (the root routes that);
// one arriving while it is open shows as unread with its own "mark as read".
export function NotificationsDialog() {
  const { open, close } = useDialog('notifications');
  return (
    <Dialog open={open} onClose={close} title={dialogCopy.notifications.title}>
      <NotificationList />
    </Dialog>
  );
}

const NONE: readonly NotificationRow[] = [];

function NotificationList() {
  const notifications = useSessionChild('notifications');
  const rows = useSessionSelector('notifications', (snapshot) => snapshot.context.notifications, NONE);
  const loading = useSessionSelector(
    'notifications',
    (snapshot) => snapshot.matches({ list: 'loading' }),
    false,
  );
  const clearing = useSessionSelector(
    'notifications',
    (snapshot) => snapshot.matches({ clear: 'clearing' }),
    false,
  );

  return (
    <>
      {rows.length > 0 ? (
        <List aria-busy={loading}>
          {rows.map((row) => (
            <NotificationItem
              key={row.id}
              row={row}
              onMarkRead={() => notifications?.send({ type: 'notifications.markOne', id: row.id })}
            />
          ))}
        </List>
      ) : (
        <StatusText role="status">
          {loading ? dialogCopy.notifications.loading : dialogCopy.notifications.empty}
        </StatusText>
      )}
      <Actions>
        <ClearAll
          type="button"
          $variant="danger"
          // aria-disabled rather than disabled: focus stays on the button when the list empties.
          aria-disabled={clearing || rows.length === 0 || undefined}
          onClick={() => {
            if (!clearing && rows.length > 0) notifications?.send({ type: 'notifications.clearAll' });
          }}
        >
          {clearing ? dialogCopy.notifications.clearing : dialogCopy.notifications.clearAll}
        </ClearAll>
      </Actions>
    </>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space(2)};
`;

const ClearAll = styled(Button)`
  &[aria-disabled='true'] {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

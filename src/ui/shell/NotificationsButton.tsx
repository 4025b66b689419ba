import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { useChild, useSessionSelector } from '../portal-context.tsx';
import { BellIcon } from './icons.tsx';
import { HeaderIconButton } from './HeaderIconButton.tsx';
import { theme } from '../theme.ts';

// Opens the notifications dialog (which marks them read). The dot shows only
// while something is unread (docs/product.md#notifications); the count is in the button's name.
export function NotificationsButton() {
  const dialogs = useChild('dialogs');
  const unread = useSessionSelector('notifications', (snapshot) => snapshot.context.unreadCount, 0);
  const label = shellCopy.notifications(unread);
  return (
    <HeaderIconButton
      type="button"
      aria-label={label}
      aria-haspopup="dialog"
      title={label}
      onClick={() => dialogs.send({ type: 'dialogs.open', dialog: 'notifications' })}
    >
      <BellIcon />
      {unread > 0 ? <Dot aria-hidden="true" data-unread-dot="" /> : null}
    </HeaderIconButton>
  );
}

const Dot = styled.span`
  position: absolute;
  top: 8px;
  right: 8px;
  width: 10px;
  height: 10px;
  border-radius: ${theme.radius.pill};
  background: ${theme.color.danger};
  border: 2px solid ${theme.color.surface};
`;

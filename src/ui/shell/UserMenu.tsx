import * as Popover from '@radix-ui/react-popover';
import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { displayName } from '../../machines/profile/display-name.ts';
import { useChild, useChildSelector, usePortalSelector, useProfile } from '../portal-context.tsx';
import { UserMenuButton } from './UserMenuButton.tsx';
import { UserMenuItems } from './UserMenuItems.tsx';
import { theme } from '../theme.ts';

// The signed-in user's dropdown (docs/product.md#header), on Radix Popover: Escape and a
// click outside close it, focus moves into it and back. Whether it is open is
// the dialogs machine's `menuOpen` (docs/product.md#menu-and-dialogs).
// A lazy chunk: the header shows the bare UserMenuButton until it arrives.
export default function UserMenu() {
  const dialogs = useChild('dialogs');
  const open = useChildSelector('dialogs', (snapshot) => snapshot.context.menuOpen);
  const user = usePortalSelector((snapshot) => snapshot.context.user);
  const profile = useProfile();
  const name = displayName(profile, user);
  return (
    <Popover.Root open={open} onOpenChange={(next) => dialogs.send({ type: 'menu.setOpen', open: next })}>
      <Popover.Trigger asChild>
        <UserMenuButton />
      </Popover.Trigger>
      <Popover.Portal>
        <Content align="end" sideOffset={8} collisionPadding={8} aria-label={shellCopy.userMenuLabel}>
          <MenuHeader>
            <strong>{name}</strong>
            {user?.email ? <Email>{user.email}</Email> : null}
          </MenuHeader>
          <UserMenuItems />
        </Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

const Content = styled(Popover.Content)`
  z-index: 50;
  width: min(260px, calc(100vw - 16px));
  padding: ${theme.space(1)};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow};
`;

const MenuHeader = styled.div`
  display: grid;
  padding: ${theme.space(2)} ${theme.space(3)};
  border-bottom: 1px solid ${theme.color.border};
  overflow-wrap: anywhere;
`;

const Email = styled.span`
  font-size: 0.875rem;
  color: ${theme.color.textMuted};
`;

import * as Popover from '@radix-ui/react-popover';
import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { displayName } from '../../machines/display-name.ts';
import { useChild, useChildSelector, usePortalSelector } from '../portal-context.tsx';
import { ChevronDownIcon, UserIcon } from './icons.tsx';
import { UserMenuItems } from './UserMenuItems.tsx';

// The signed-in user's dropdown (spec §2), on Radix Popover: Escape and a
// click outside close it, focus moves into it and back. Whether it is open is
// the dialogs machine's `menuOpen` (spec §4 "User menu: open or closed").
export function UserMenu() {
  const dialogs = useChild('dialogs');
  const open = useChildSelector('dialogs', (snapshot) => snapshot.context.menuOpen);
  const user = usePortalSelector((snapshot) => snapshot.context.user);
  const profile = usePortalSelector((snapshot) => snapshot.context.profile);
  const name = displayName(profile, user);
  const avatar = profile?.avatar_url ?? null;
  return (
    <Popover.Root open={open} onOpenChange={(next) => dialogs.send({ type: 'menu.setOpen', open: next })}>
      <Popover.Trigger asChild>
        <Trigger type="button" aria-label={shellCopy.userMenu(name)}>
          <Avatar aria-hidden="true">{avatar ? <img src={avatar} alt="" /> : <UserIcon />}</Avatar>
          <Name>{name}</Name>
          <ChevronDownIcon />
        </Trigger>
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

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  min-height: 40px;
  max-width: 220px;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(2)} ${theme.space(1)} ${theme.space(1)}`};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.color.surfaceAlt};
  color: ${({ theme }) => theme.color.text};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &[data-state='open'] {
    border-color: ${({ theme }) => theme.color.accent};
  }
`;

const Avatar = styled.span`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 30px;
  height: 30px;
  overflow: hidden;
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.color.accent};
  color: ${({ theme }) => theme.color.accentText};
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

const Name = styled.span`
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  ${({ theme }) => theme.phone} {
    display: none;
  }
`;

const Content = styled(Popover.Content)`
  z-index: 50;
  width: min(260px, calc(100vw - 16px));
  padding: ${({ theme }) => theme.space(1)};
  background: ${({ theme }) => theme.color.surface};
  color: ${({ theme }) => theme.color.text};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow};
`;

const MenuHeader = styled.div`
  display: grid;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-bottom: 1px solid ${({ theme }) => theme.color.border};
  overflow-wrap: anywhere;
`;

const Email = styled.span`
  font-size: 0.875rem;
  color: ${({ theme }) => theme.color.textMuted};
`;

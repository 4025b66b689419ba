import type { ComponentPropsWithRef } from 'react';
import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { displayName } from '../../machines/profile/display-name.ts';
import { usePortalSelector, useProfile } from '../portal-context.tsx';
import { ChevronDownIcon, UserIcon } from './icons.tsx';
import { theme } from '../theme.ts';

// The user menu's trigger: avatar, name, chevron. It has no Radix in it, so
// the header can show it (as the lazy menu's stand-in) the moment a user signs
// in; Radix's Popover wraps it once its chunk has arrived.
export function UserMenuButton(props: ComponentPropsWithRef<'button'>) {
  const user = usePortalSelector((snapshot) => snapshot.context.user);
  const profile = useProfile();
  const name = displayName(profile, user);
  const avatar = profile?.avatar_url ?? null;
  return (
    <Trigger type="button" aria-label={shellCopy.userMenu(name)} {...props}>
      <Avatar aria-hidden="true">{avatar ? <img src={avatar} alt="" /> : <UserIcon />}</Avatar>
      <Name>{name}</Name>
      <ChevronDownIcon />
    </Trigger>
  );
}

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space(2)};
  min-height: 40px;
  max-width: 220px;
  padding: ${theme.space(1)} ${theme.space(2)} ${theme.space(1)} ${theme.space(1)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.text};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &[data-state='open'] {
    border-color: ${theme.color.accent};
  }
`;

const Avatar = styled.span`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 30px;
  height: 30px;
  overflow: hidden;
  border-radius: ${theme.radius.pill};
  background: ${theme.color.accent};
  color: ${theme.color.accentText};
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
  ${theme.phone} {
    display: none;
  }
`;

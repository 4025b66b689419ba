import styled from 'styled-components';
import { portalCopy } from '../../copy/index.ts';
import { displayName } from '../../machines/profile/display-name.ts';
import { usePortalSelector, useProfile } from '../portal-context.tsx';
import { UserIcon } from './icons.tsx';
import { theme } from '../theme.ts';

// The account line (docs/product.md#wallet-panel): the display name, with the profile's avatar
// when it has one, else a placeholder icon.
export function AccountLine() {
  const profile = useProfile();
  const name = displayName(
    profile,
    usePortalSelector((snapshot) => snapshot.context.user),
  );
  const avatarUrl = profile?.avatar_url ?? null;

  return (
    <Line>
      {avatarUrl ? (
        <Avatar src={avatarUrl} alt={portalCopy.avatarAlt(name)} width={40} height={40} />
      ) : (
        <Placeholder>
          <UserIcon size={22} />
        </Placeholder>
      )}
      <Text>
        <Muted>{portalCopy.loggedInAs}</Muted>
        <Name title={name}>{name}</Name>
      </Text>
    </Line>
  );
}

const Line = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space(3)};
  min-width: 0;
`;

const Avatar = styled.img`
  flex: none;
  width: 40px;
  height: 40px;
  border-radius: 50%;
  object-fit: cover;
  border: 1px solid ${theme.color.border};
`;

const Placeholder = styled.span`
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  border-radius: 50%;
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.textMuted};
  border: 1px solid ${theme.color.border};
`;

const Text = styled.p`
  display: grid;
  margin: 0;
  min-width: 0;
`;

const Muted = styled.span`
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

const Name = styled.span`
  font-weight: 600;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

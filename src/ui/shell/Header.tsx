import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import { ChunkBoundary } from '../common/ChunkBoundary.tsx';
import { usePortalSelector } from '../portal-context.tsx';
import { NotificationsButton } from './NotificationsButton.tsx';
import { TabBar } from './TabBar.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { UserMenuButton } from './UserMenuButton.tsx';
import { theme } from '../theme.ts';

// Radix's Popover and the menu's items load when a user signs in, not before the first paint.
const UserMenu = lazy(() => import('./UserMenu.tsx'));

// The top of every page: the brand, the tab bar and the top-right area
// (docs/product.md#header): the theme toggle always, the notifications and the user menu only
// for a signed-in user. On a phone the tab bar takes a row of its own.
export function Header() {
  const signedIn = usePortalSelector((snapshot) => snapshot.context.user !== null);
  // Until the menu's chunk arrives its button stands in, disabled: a press that began on it and
  // ended on the real trigger, swapped in meanwhile, would be no click at all and open nothing.
  const menuPending = <UserMenuButton disabled />;
  return (
    <Bar>
      <SkipLink href="#main">{shellCopy.skipToContent}</SkipLink>
      <Inner>
        <Brand>
          <Mark aria-hidden="true">D</Mark>
          {shellCopy.brand}
        </Brand>
        <TabBar />
        <Actions>
          <ThemeToggle />
          {signedIn ? (
            <>
              <NotificationsButton />
              <ChunkBoundary fallback={menuPending}>
                <Suspense fallback={menuPending}>
                  <UserMenu />
                </Suspense>
              </ChunkBoundary>
            </>
          ) : null}
        </Actions>
      </Inner>
    </Bar>
  );
}

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 10;
  background: ${theme.color.surface};
  border-bottom: 1px solid ${theme.color.border};
`;

const Inner = styled.div`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr) auto;
  grid-template-areas: 'brand tabs actions';
  align-items: center;
  gap: ${theme.space(4)};
  width: min(960px, 100%);
  margin: 0 auto;
  padding: ${theme.space(2)} ${theme.space(4)};
  ${theme.phone} {
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas: 'brand actions' 'tabs tabs';
    gap: ${theme.space(1)};
    padding: ${theme.space(2)} ${theme.space(3)} 0;
  }
`;

const Brand = styled.span`
  grid-area: brand;
  display: inline-flex;
  align-items: center;
  gap: ${theme.space(2)};
  font-weight: 800;
  font-size: 1.15rem;
  letter-spacing: 0.04em;
`;

const Mark = styled.span`
  display: inline-grid;
  place-items: center;
  width: 32px;
  height: 32px;
  border-radius: ${theme.radius.md};
  background: ${theme.color.accent};
  color: ${theme.color.accentText};
  font-size: 1rem;
`;

const Actions = styled.div`
  grid-area: actions;
  display: flex;
  align-items: center;
  gap: ${theme.space(1)};
`;

const SkipLink = styled.a`
  position: absolute;
  left: ${theme.space(2)};
  top: -100px;
  padding: ${theme.space(2)} ${theme.space(3)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.accent};
  color: ${theme.color.accentText};
  &:focus {
    top: ${theme.space(2)};
  }
`;

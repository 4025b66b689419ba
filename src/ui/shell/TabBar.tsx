import styled from 'styled-components';
import { appCopy, shellCopy } from '../../copy/index.ts';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// The three tabs of docs/product.md#tabs-and-pages. The current one carries aria-current and the
// accent underline; the pages reached from the user menu (FAQ, Privacy,
// Terms) highlight none. On a narrow phone the row scrolls sideways.

const TAB_BAR = ['portal', 'trading', 'bots'] as const;

export function TabBar() {
  const tab = useChild('tab');
  const current = useChildSelector('tab', (snapshot) => snapshot.value);
  return (
    <Nav aria-label={shellCopy.sections}>
      <List>
        {TAB_BAR.map((id) => (
          <li key={id}>
            <TabButton
              type="button"
              aria-current={current === id ? 'page' : undefined}
              onClick={() => tab.send({ type: 'tab.select', tab: id })}
            >
              {appCopy.tabs[id]}
            </TabButton>
          </li>
        ))}
      </List>
    </Nav>
  );
}

const Nav = styled.nav`
  grid-area: tabs;
  min-width: 0;
`;

const List = styled.ul`
  display: flex;
  gap: ${theme.space(1)};
  margin: 0;
  padding: 0;
  list-style: none;
  overflow-x: auto;
  scrollbar-width: thin;
  ${theme.phone} {
    justify-content: space-between;
    gap: 0;
  }
`;

const TabButton = styled.button`
  position: relative;
  min-height: 44px;
  padding: ${theme.space(2)} ${theme.space(3)};
  border: none;
  border-radius: ${theme.radius.sm};
  background: transparent;
  color: ${theme.color.textMuted};
  font: inherit;
  font-weight: 600;
  white-space: nowrap;
  cursor: pointer;
  ${theme.phone} {
    min-height: 40px;
    padding: ${theme.space(2)} 6px;
    font-size: 0.875rem;
  }
  &:hover {
    color: ${theme.color.text};
    background: ${theme.color.surfaceAlt};
  }
  &:focus-visible {
    outline-offset: -2px;
  }
  &[aria-current='page'] {
    color: ${theme.color.text};
  }
  &[aria-current='page']::after {
    content: '';
    position: absolute;
    left: ${theme.space(2)};
    right: ${theme.space(2)};
    bottom: 2px;
    height: 3px;
    border-radius: ${theme.radius.pill};
    background: ${theme.color.accent};
  }
`;

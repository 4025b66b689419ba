import styled from 'styled-components';
import { appCopy } from '../../copy/index.ts';
import type { DialogName } from '../../machines/dialogs.machine.ts';
import { useChild } from '../portal-context.tsx';
import { UserMenuItem as Item } from './UserMenuItem.tsx';
import { theme } from '../theme.ts';

// The entries of the user menu, in the order of docs/product.md#header and in four groups: the
// dialogs, the pages, the placeholders (API Keys and Security are Soon, About
// is disabled) and Log out in red.

type Page = 'bots' | 'faq' | 'privacy' | 'terms';

export function UserMenuItems() {
  const dialogs = useChild('dialogs');
  const tab = useChild('tab');
  const auth = useChild('auth');
  // Opening a dialog closes the menu in the dialogs machine; the other entries close it here.
  const openDialog = (dialog: DialogName) => dialogs.send({ type: 'dialogs.open', dialog });
  const closeMenu = () => dialogs.send({ type: 'menu.setOpen', open: false });
  const showPage = (page: Page) => {
    tab.send({ type: 'tab.select', tab: page });
    closeMenu();
  };
  const { menu } = appCopy;
  return (
    <>
      <Group>
        <Item label={menu.profile} onSelect={() => openDialog('profile')} />
        <Item label={menu.transactions} onSelect={() => openDialog('transactions')} />
      </Group>
      <Group>
        <Item label={menu.bots} onSelect={() => showPage('bots')} />
        <Item label={menu.faq} onSelect={() => showPage('faq')} />
        <Item label={menu.privacy} onSelect={() => showPage('privacy')} />
        <Item label={menu.terms} onSelect={() => showPage('terms')} />
      </Group>
      <Group>
        <Item label={menu.apiKeys} soon onSelect={() => openDialog('apiKeys')} />
        <Item label={menu.security} soon onSelect={() => openDialog('security')} />
        <Item label={menu.about} />
      </Group>
      <Group>
        <Item
          label={menu.logOut}
          danger
          onSelect={() => {
            closeMenu();
            auth.send({ type: 'auth.signOut' });
          }}
        />
      </Group>
    </>
  );
}

const Group = styled.ul`
  margin: 0;
  padding: ${theme.space(1)} 0;
  list-style: none;
  & + & {
    border-top: 1px solid ${theme.color.border};
  }
`;

import { useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { devtoolsCopy } from './devtools.copy.ts';
import { theme } from '../../ui/theme.ts';

// The panel's views as an ARIA tab list: one tab in the Tab order, arrow keys
// (and Home / End) move between tabs and select them.

export const TAB_IDS = ['machines', 'journal', 'replay', 'diagram'] as const;
export type TabId = (typeof TAB_IDS)[number];

export const tabId = (tab: TabId) => `devtools-tab-${tab}`;
export const panelId = (tab: TabId) => `devtools-tabpanel-${tab}`;

export function PanelTabs({ selected, onSelect }: { selected: TabId; onSelect: (tab: TabId) => void }) {
  const list = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TAB_IDS.indexOf(selected);
    const next =
      event.key === 'ArrowRight'
        ? TAB_IDS[(index + 1) % TAB_IDS.length]
        : event.key === 'ArrowLeft'
          ? TAB_IDS[(index - 1 + TAB_IDS.length) % TAB_IDS.length]
          : event.key === 'Home'
            ? TAB_IDS[0]
            : event.key === 'End'
              ? TAB_IDS[TAB_IDS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    list.current?.querySelector<HTMLButtonElement>(`#${tabId(next)}`)?.focus();
  };

  return (
    <List role="tablist" aria-label={devtoolsCopy.tabsLabel} ref={list} onKeyDown={onKeyDown}>
      {TAB_IDS.map((tab) => (
        <Tab
          key={tab}
          id={tabId(tab)}
          type="button"
          role="tab"
          aria-selected={tab === selected}
          aria-controls={panelId(tab)}
          tabIndex={tab === selected ? 0 : -1}
          onClick={() => onSelect(tab)}
        >
          {devtoolsCopy.tabs[tab]}
        </Tab>
      ))}
    </List>
  );
}

const List = styled.div`
  display: flex;
  gap: ${theme.space(1)};
  border-bottom: 1px solid ${theme.color.border};
  overflow-x: auto;
`;

const Tab = styled.button`
  min-height: 40px;
  padding: ${theme.space(2)} ${theme.space(3)};
  border: none;
  border-bottom: 3px solid transparent;
  background: transparent;
  color: ${theme.color.textMuted};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &[aria-selected='true'] {
    color: ${theme.color.text};
    border-bottom-color: ${theme.color.accent};
  }
`;

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { IconButton } from '../../ui/common/Button.tsx';
import { devtoolsCopy } from './devtools.copy.ts';
import { DiagramView } from './DiagramView.tsx';
import { JournalView } from './JournalView.tsx';
import { MachinesView } from './MachinesView.tsx';
import { panelId, PanelTabs, tabId, type TabId } from './PanelTabs.tsx';
import { ReplayView, type ReplayResult } from './ReplayView.tsx';
import type { DevtoolsOptions, MachineId } from './types.ts';
import { theme } from '../../ui/theme.ts';

// The developer panel: a small toggle in the bottom-left corner (the toasts
// own the bottom-right) that opens a side sheet over the right of the page.
// The sheet is not modal, so the portal stays usable while its machines are
// watched; Escape closes it and focus returns to the toggle. This module is
// the lazy chunk App loads only when the panel is enabled (see gate.ts).

const SHEET_ID = 'devtools-panel';

export default function DevtoolsPanel({ journal, replay }: DevtoolsOptions) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<TabId>('machines');
  const [diagramOf, setDiagramOf] = useState<MachineId>('portal');
  const [replayed, setReplayed] = useState<ReplayResult | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (open) heading.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  };
  const showDiagram = (id: MachineId) => {
    setDiagramOf(id);
    setTab('diagram');
  };

  return (
    <>
      <Toggle
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={SHEET_ID}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {devtoolsCopy.toggleText}
      </Toggle>
      {open ? (
        <Sheet id={SHEET_ID} aria-labelledby="devtools-title" onKeyDown={onKeyDown}>
          <Header>
            <Title id="devtools-title" ref={heading} tabIndex={-1}>
              {devtoolsCopy.title}
            </Title>
            <IconButton type="button" aria-label={devtoolsCopy.close} onClick={close}>
              ✕
            </IconButton>
          </Header>
          <PanelTabs selected={tab} onSelect={setTab} />
          <Body role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
            {tab === 'machines' ? <MachinesView onShowDiagram={showDiagram} /> : null}
            {tab === 'journal' ? <JournalView journal={journal} /> : null}
            {tab === 'replay' ? (
              <ReplayView replay={replay} result={replayed} onResult={setReplayed} />
            ) : null}
            {tab === 'diagram' ? (
              <DiagramView machineId={diagramOf} onMachineChange={setDiagramOf} journal={journal} />
            ) : null}
          </Body>
        </Sheet>
      ) : null}
    </>
  );
}

// Above the sticky header (10), below the portal's dialogs (100) and toasts (1000).
const Toggle = styled.button`
  position: fixed;
  left: ${theme.space(3)};
  bottom: ${theme.space(3)};
  z-index: 90;
  min-height: 36px;
  padding: ${theme.space(1)} ${theme.space(3)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.text};
  color: ${theme.color.bg};
  font: inherit;
  font-size: 0.8125rem;
  font-weight: 600;
  box-shadow: ${theme.shadow};
  cursor: pointer;
`;

const Sheet = styled.section`
  position: fixed;
  top: 0;
  right: 0;
  bottom: 0;
  z-index: 91;
  display: flex;
  flex-direction: column;
  width: min(560px, 100vw);
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border-left: 1px solid ${theme.color.border};
  box-shadow: ${theme.shadow};
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: ${theme.space(3)} ${theme.space(4)} 0;
`;

const Title = styled.h2`
  margin: 0;
  font-size: 1.125rem;
`;

const Body = styled.div`
  flex: 1;
  overflow: auto;
  padding: ${theme.space(4)};
`;

import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { IconButton } from './Button.tsx';
import { theme } from '../theme.ts';

// Every dialog of the portal, on Radix's Dialog: focus is trapped inside,
// Escape and the backdrop close it (unless it is not `dismissible`: then only its X does), and it
// is labelled by its title (and described by its description when there is one).

type Props = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Accessible name of the close (X) button. */
  closeLabel?: string;
  /** False: Escape and a click on the backdrop leave it open; only its X closes it. Default true. */
  dismissible?: boolean;
};

const keepOpen = (event: Event) => event.preventDefault();

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  closeLabel = 'Close',
  dismissible = true,
}: Props) {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <Overlay />
        {/* Without a description, Radix wants aria-describedby stated as absent. */}
        <Content
          {...(description ? {} : { 'aria-describedby': undefined })}
          {...(dismissible ? {} : { onEscapeKeyDown: keepOpen, onInteractOutside: keepOpen })}
        >
          <Header>
            <Title>{title}</Title>
            <RadixDialog.Close asChild>
              <IconButton aria-label={closeLabel}>✕</IconButton>
            </RadixDialog.Close>
          </Header>
          {description ? <Description>{description}</Description> : null}
          {children}
        </Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

// Above the sticky header (10), below the toast (1000).
const Overlay = styled(RadixDialog.Overlay)`
  position: fixed;
  inset: 0;
  z-index: 100;
  background: ${theme.color.overlay};
`;

const Content = styled(RadixDialog.Content)`
  position: fixed;
  z-index: 101;
  top: 50%;
  left: 50%;
  transform: translate(-50%, -50%);
  width: min(520px, calc(100vw - 24px));
  max-height: calc(100vh - 48px);
  overflow: auto;
  padding: ${theme.space(6)};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.lg};
  box-shadow: ${theme.shadow};
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  margin-bottom: ${theme.space(3)};
`;

const Title = styled(RadixDialog.Title)`
  margin: 0;
  font-size: 1.25rem;
`;

const Description = styled(RadixDialog.Description)`
  margin: 0 0 ${theme.space(4)};
  color: ${theme.color.textMuted};
`;

import styled, { css, keyframes } from 'styled-components';
import { shellCopy } from '../../copy/index.ts';
import type { ShownToast } from '../../machines/toast.machine.ts';
import { useChild } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// One toast: title, optional description, optional action button and the
// dismiss button. The text is shown as text, never as HTML (notification
// titles come from the database).
export function ToastCard({ toast }: { toast: ShownToast }) {
  const actor = useChild('toast');
  const destructive = toast.variant === 'destructive';
  return (
    <Card $destructive={destructive}>
      <Text>
        <Title>{toast.title}</Title>
        {toast.description ? <Description>{toast.description}</Description> : null}
      </Text>
      {toast.action ? (
        <Action type="button" onClick={() => actor.send({ type: 'toast.action' })}>
          {toast.action.label}
        </Action>
      ) : null}
      <Dismiss
        type="button"
        aria-label={shellCopy.dismissToast}
        onClick={() => actor.send({ type: 'toast.dismiss' })}
      >
        ✕
      </Dismiss>
    </Card>
  );
}

const enter = keyframes`from { opacity: 0; transform: translateY(8px); }`;

const Card = styled.div<{ $destructive: boolean }>`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space(3)};
  padding: ${theme.space(3)} ${theme.space(3)} ${theme.space(3)} ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  box-shadow: ${theme.shadow};
  animation: ${enter} 160ms ease-out;
  ${({ $destructive }) =>
    $destructive &&
    css`
      border-color: transparent;
      background: ${theme.color.danger};
      color: ${theme.color.dangerText};
    `}
`;

const Text = styled.div`
  flex: 1;
  min-width: 0;
  overflow-wrap: anywhere;
`;

const Title = styled.p`
  margin: 0;
  font-weight: 700;
`;

const Description = styled.p`
  margin: ${theme.space(1)} 0 0;
  font-size: 0.9rem;
`;

const Action = styled.button`
  flex: none;
  min-height: 32px;
  padding: 0 ${theme.space(3)};
  border: 1px solid currentColor;
  border-radius: ${theme.radius.sm};
  background: transparent;
  color: inherit;
  font: inherit;
  font-size: 0.875rem;
  font-weight: 600;
  cursor: pointer;
`;

const Dismiss = styled.button`
  flex: none;
  width: 32px;
  height: 32px;
  border: none;
  border-radius: ${theme.radius.sm};
  background: transparent;
  color: inherit;
  font: inherit;
  cursor: pointer;
  &:focus-visible {
    outline-color: currentColor;
  }
`;

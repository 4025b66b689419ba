import styled from 'styled-components';
import { appCopy } from '../../copy/index.ts';
import { theme } from '../theme.ts';

/** One entry; without `onSelect` it is shown disabled. */
export function UserMenuItem({
  label,
  onSelect,
  soon = false,
  danger = false,
}: {
  label: string;
  onSelect?: () => void;
  soon?: boolean;
  danger?: boolean;
}) {
  return (
    <li>
      <ItemButton type="button" disabled={!onSelect} onClick={onSelect} $danger={danger}>
        {label}
        {soon ? <Soon>{appCopy.menu.soon}</Soon> : null}
      </ItemButton>
    </li>
  );
}

const ItemButton = styled.button<{ $danger: boolean }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  width: 100%;
  min-height: 36px;
  padding: ${theme.space(1)} ${theme.space(3)};
  border: none;
  border-radius: ${theme.radius.sm};
  background: transparent;
  color: ${({ $danger }) => ($danger ? theme.color.danger : theme.color.text)};
  font: inherit;
  font-weight: ${({ $danger }) => ($danger ? 600 : 400)};
  text-align: left;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
  }
  &:focus-visible {
    outline-offset: -2px;
  }
  &:disabled {
    color: ${theme.color.textMuted};
    cursor: not-allowed;
  }
`;

const Soon = styled.span`
  padding: 0 ${theme.space(2)};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  font-size: 0.75rem;
  font-weight: 700;
`;

import styled from 'styled-components';
import { appCopy } from '../../copy/index.ts';

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
  gap: ${({ theme }) => theme.space(2)};
  width: 100%;
  min-height: 36px;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(3)}`};
  border: none;
  border-radius: ${({ theme }) => theme.radius.sm};
  background: transparent;
  color: ${({ theme, $danger }) => ($danger ? theme.color.danger : theme.color.text)};
  font: inherit;
  font-weight: ${({ $danger }) => ($danger ? 600 : 400)};
  text-align: left;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${({ theme }) => theme.color.surfaceAlt};
  }
  &:focus-visible {
    outline-offset: -2px;
  }
  &:disabled {
    color: ${({ theme }) => theme.color.textMuted};
    cursor: not-allowed;
  }
`;

const Soon = styled.span`
  padding: 0 ${({ theme }) => theme.space(2)};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.color.warningBg};
  color: ${({ theme }) => theme.color.warningText};
  font-size: 0.75rem;
  font-weight: 700;
`;

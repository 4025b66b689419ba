import styled, { css, keyframes } from 'styled-components';
import { theme } from '../theme.ts';

// The portal's buttons. `$variant` picks the look; a busy button stays in
// the layout with its label, so nothing jumps when an operation starts.

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

const variants = {
  primary: css`
    background: ${theme.color.accent};
    color: ${theme.color.accentText};
    border-color: transparent;
  `,
  secondary: css`
    background: ${theme.color.surfaceAlt};
    color: ${theme.color.text};
    border-color: ${theme.color.border};
  `,
  danger: css`
    background: ${theme.color.danger};
    color: ${theme.color.dangerText};
    border-color: transparent;
  `,
  ghost: css`
    background: transparent;
    color: ${theme.color.text};
    border-color: transparent;
  `,
};

export const Button = styled.button<{ $variant?: Variant; $block?: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space(2)};
  min-height: 40px;
  padding: ${theme.space(2)} ${theme.space(4)};
  border: 1px solid;
  border-radius: ${theme.radius.md};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  width: ${({ $block }) => ($block ? '100%' : 'auto')};
  ${({ $variant = 'primary' }) => variants[$variant]}
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

/** A square button holding only an icon; give it an aria-label. */
export const IconButton = styled(Button).attrs({ $variant: 'ghost' as const })`
  min-width: 40px;
  padding: ${theme.space(2)};
`;

const spin = keyframes`to { transform: rotate(360deg); }`;

/** Wraps an icon that turns while `$spinning`. */
export const Spinner = styled.span<{ $spinning: boolean }>`
  display: inline-flex;
  ${({ $spinning }) =>
    $spinning &&
    css`
      animation: ${spin} 1s linear infinite;
    `}
`;

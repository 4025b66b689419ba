import styled from 'styled-components';
import { theme } from '../theme.ts';

// Small pieces the dialogs share: a row of actions, a quiet status line, a
// pill-shaped tag, and a button that reads as a link.

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${theme.space(2)};
  margin-top: ${theme.space(4)};
`;

/** Loading, empty and error lines; `role="status"` where the caller wants them announced. */
export const StatusText = styled.p`
  margin: ${theme.space(4)} 0;
  color: ${theme.color.textMuted};
  text-align: center;
`;

export const Tag = styled.span<{ $tone?: 'accent' | 'muted' }>`
  display: inline-block;
  padding: 0 ${theme.space(2)};
  border-radius: ${theme.radius.pill};
  border: 1px solid ${({ $tone }) => ($tone === 'accent' ? theme.color.accent : theme.color.border)};
  background: ${({ $tone }) => ($tone === 'accent' ? theme.color.accent : theme.color.surfaceAlt)};
  color: ${({ $tone }) => ($tone === 'accent' ? theme.color.accentText : theme.color.textMuted)};
  font-size: 0.75rem;
  font-weight: 600;
  line-height: 1.6;
  white-space: nowrap;
`;

/** An action that reads as a link (e.g. switching between login and sign-up). */
export const LinkButton = styled.button`
  padding: 0;
  border: 0;
  background: none;
  color: ${theme.color.accent};
  font: inherit;
  font-weight: 600;
  text-decoration: underline;
  text-underline-offset: 2px;
  cursor: pointer;
`;

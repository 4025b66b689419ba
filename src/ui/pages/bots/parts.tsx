import styled from 'styled-components';
import { theme } from '../../theme.ts';

// Pieces the Trading Bots tab's views share: a quiet line and a row of buttons.

export const Muted = styled.p`
  margin: 0 0 ${theme.space(2)};
  color: ${theme.color.textMuted};
  font-size: 0.9rem;
  overflow-wrap: anywhere;
`;

/** A row of buttons that wraps on a phone. */
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
`;

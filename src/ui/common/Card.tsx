import styled from 'styled-components';
import { theme } from '../theme.ts';

export const Card = styled.section`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.lg};
  padding: ${theme.space(6)};
  box-shadow: ${theme.shadow};
  ${theme.phone} {
    padding: ${theme.space(4)};
  }
`;

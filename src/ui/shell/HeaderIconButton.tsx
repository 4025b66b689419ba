import styled from 'styled-components';
import { IconButton } from '../common/Button.tsx';

/** The header's round icon buttons, with the hover tint the ghost button lacks. */
export const HeaderIconButton = styled(IconButton)`
  position: relative;
  border-radius: ${({ theme }) => theme.radius.pill};
  &:hover {
    background: ${({ theme }) => theme.color.surfaceAlt};
  }
`;

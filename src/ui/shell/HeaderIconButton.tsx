import styled from 'styled-components';
import { IconButton } from '../common/Button.tsx';
import { theme } from '../theme.ts';

/** The header's round icon buttons, with the hover tint the ghost button lacks. */
export const HeaderIconButton = styled(IconButton)`
  position: relative;
  border-radius: ${theme.radius.pill};
  &:hover {
    background: ${theme.color.surfaceAlt};
  }
`;

import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../../theme.ts';

/** The notice of a dialog whose feature is not built yet. */
export function UnderConstruction({ children }: { children: ReactNode }) {
  return (
    <Notice>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M12 3 2 21h20L12 3Z"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="M12 10v5M12 18v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <p>{children}</p>
    </Notice>
  );
}

const Notice = styled.div`
  display: flex;
  gap: ${theme.space(3)};
  align-items: flex-start;
  padding: ${theme.space(4)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  svg {
    flex: none;
    margin-top: 2px;
  }
  p {
    margin: 0;
  }
`;

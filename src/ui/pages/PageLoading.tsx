import styled, { keyframes } from 'styled-components';
import { theme } from '../theme.ts';

/**
 * What a lazily loaded tab shows while its code arrives (its loading message,
 * docs/product.md#tabs-and-pages), or why it did not.
 */
export function PageLoading({ message, failed = false }: { message: string; failed?: boolean }) {
  return (
    <Loading role={failed ? 'alert' : 'status'}>
      {failed ? null : <Ring aria-hidden="true" />}
      {message}
    </Loading>
  );
}

const Loading = styled.p`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space(3)};
  min-height: 240px;
  margin: 0;
  color: ${theme.color.textMuted};
  font-weight: 600;
`;

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.span`
  width: 18px;
  height: 18px;
  border: 3px solid ${theme.color.border};
  border-top-color: ${theme.color.accent};
  border-radius: ${theme.radius.pill};
  animation: ${spin} 0.9s linear infinite;
`;

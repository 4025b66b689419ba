import styled from 'styled-components';
import { theme } from '../theme.ts';

// The building blocks of the lazily loaded pages: a title, a lead paragraph
// and cards of text, readable in both themes and on a phone.

export const Page = styled.article`
  display: grid;
  /* One column no wider than the page: a wide table scrolls inside its card instead of widening it. */
  grid-template-columns: minmax(0, 1fr);
  gap: ${theme.space(5)};
  max-width: 760px;
`;

export const PageTitle = styled.h1`
  margin: 0;
  font-size: clamp(1.6rem, 5vw, 2.1rem);
  line-height: 1.2;
`;

export const Lead = styled.p`
  margin: 0;
  font-size: 1.05rem;
  color: ${theme.color.textMuted};
`;

export const SectionTitle = styled.h2`
  margin: 0 0 ${theme.space(2)};
  font-size: 1.15rem;
`;

export const Paragraph = styled.p`
  margin: 0 0 ${theme.space(3)};
  &:last-child {
    margin-bottom: 0;
  }
`;

/** A notice that something is not available here, set apart from the text around it. */
export const Notice = styled.p`
  margin: 0;
  padding: ${theme.space(3)} ${theme.space(4)};
  border-radius: ${theme.radius.md};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  font-weight: 600;
`;

import styled from 'styled-components';
import { theme } from '../../ui/theme.ts';

// Small pieces the panel's views share: section headings, monospace text and
// the boxes machine states and journal entries sit in.

export const Section = styled.section`
  display: grid;
  gap: ${theme.space(3)};
`;

export const SectionHeading = styled.h3`
  margin: 0;
  font-size: 1.05rem;
`;

export const Hint = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
  font-size: 0.875rem;
`;

export const Mono = styled.code`
  font-family: ${theme.font.mono};
  font-size: 0.8125rem;
  overflow-wrap: anywhere;
`;

/** Scrolls when long, so it takes focus (keyboard users can scroll it too). */
export const Pre = styled.pre.attrs({ tabIndex: 0 })`
  margin: ${theme.space(2)} 0 0;
  padding: ${theme.space(2)};
  max-height: 320px;
  overflow: auto;
  background: ${theme.color.bg};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  font-family: ${theme.font.mono};
  font-size: 0.75rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

export const Box = styled.article`
  padding: ${theme.space(3)};
  background: ${theme.color.surfaceAlt};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  min-width: 0;
`;

export const PlainList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space(2)};
`;

export const Summary = styled.summary`
  cursor: pointer;
  font-size: 0.875rem;
  color: ${theme.color.text};
`;

export const Alert = styled.p`
  margin: 0;
  padding: ${theme.space(3)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  font-size: 0.875rem;
`;

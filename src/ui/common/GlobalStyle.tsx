import { createGlobalStyle } from 'styled-components';
import { cssVariables } from '../theme.ts';
import { theme } from '../theme.ts';

export const GlobalStyle = createGlobalStyle`
  html[data-theme='light'] { ${cssVariables('light')} color-scheme: light; }
  html[data-theme='dark'] { ${cssVariables('dark')} color-scheme: dark; }
  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; min-height: 100%; }
  body {
    background: ${theme.color.bg};
    color: ${theme.color.text};
    font-family: ${theme.font.body};
    line-height: 1.5;
    -webkit-font-smoothing: antialiased;
  }
  a { color: ${theme.color.accent}; }
  :focus-visible { outline: 2px solid ${theme.color.focus}; outline-offset: 2px; }
  @media (prefers-reduced-motion: reduce) {
    /* No transitions at all: a near-zero one still makes layout read stale sizes (diagrams measure). */
    *, *::before, *::after { animation-duration: 0.01ms !important; transition: none !important; }
  }
`;

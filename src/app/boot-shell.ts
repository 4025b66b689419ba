import { shellCopy } from '../copy/index.ts';
import { cssVariables, theme } from '../ui/theme.ts';

// The first paint, before any JavaScript has run: the page's colours and the
// header bar with the brand, as the app draws them (src/ui/shell/Header.tsx,
// GlobalStyle), written into index.html at build time by vite.config.ts. The
// inline theme script has already picked light or dark; React replaces the
// shell when it renders, with the same bar in the same place.

export const BOOT_SHELL_HTML = `<header class="boot-shell"><div class="boot-shell-inner"><span class="boot-shell-brand"><span class="boot-shell-mark" aria-hidden="true">D</span>${shellCopy.brand}</span></div></header>`;

export const BOOT_SHELL_CSS = [
  `html[data-theme='light'] { ${cssVariables('light')} color-scheme: light; }`,
  `html[data-theme='dark'] { ${cssVariables('dark')} color-scheme: dark; }`,
  `body { margin: 0; background: var(--color-bg); color: var(--color-text); font-family: ${theme.font.body}; line-height: 1.5; }`,
  `.boot-shell { background: var(--color-surface); border-bottom: 1px solid var(--color-border); }`,
  `.boot-shell-inner { width: min(960px, 100%); margin: 0 auto; padding: ${theme.space(2)} ${theme.space(4)}; box-sizing: border-box; min-height: 57px; display: flex; align-items: center; }`,
  `.boot-shell-brand { display: inline-flex; align-items: center; gap: ${theme.space(2)}; font-weight: 800; font-size: 1.15rem; letter-spacing: 0.04em; }`,
  `.boot-shell-mark { display: inline-grid; place-items: center; width: 32px; height: 32px; border-radius: ${theme.radius.md}; background: var(--color-accent); color: var(--color-accentText); font-size: 1rem; }`,
].join('\n');

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { BOOT_SHELL_CSS, BOOT_SHELL_HTML } from './src/app/boot-shell.ts';

/** Writes the boot shell (src/app/boot-shell.ts) into index.html, so the first paint needs no JavaScript. */
const bootShell = (): Plugin => ({
  name: 'ddex-boot-shell',
  transformIndexHtml: (html) =>
    html
      .replace('</head>', `<style>${BOOT_SHELL_CSS}</style></head>`)
      .replace('<div id="root"></div>', `<div id="root">${BOOT_SHELL_HTML}</div>`),
});

export default defineConfig({
  plugins: [react(), bootShell()],
  define: {
    // Vite turns `process.env` into `{}` in browser code. The Tatum SDK reads its REST base from
    // process.env.TATUM_URL (there is no option for it), which the Tatum service sets on
    // globalThis.process before each call; this keeps that lookup alive and is `{}` otherwise.
    'process.env': '(globalThis.process?.env ?? {})',
  },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs (React, styled-components, XState) in one chunk of its own: it changes
          // only with a dependency bump, so browsers keep it across deploys, and one chunk compresses
          // better than the several small ones the lazy chunks would otherwise split it into.
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|styled-components|stylis|xstate|@xstate|use-sync-external-store)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});

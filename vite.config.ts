import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import {
  HEADERS_FILE,
  headersFile,
  pagePolicy,
  POLICY_HEADER,
  policyFromHeadersFile,
  withPolicyMeta,
} from './scripts/lib/content-security-policy.ts';
import { BOOT_SHELL_CSS, BOOT_SHELL_HTML } from './src/app/boot-shell.ts';
import type { RawEnv } from './src/config/app-config.ts';

/** Writes the boot shell (src/app/boot-shell.ts) into index.html, so the first paint needs no JavaScript. */
const bootShell = (): Plugin => ({
  name: 'ddex-boot-shell',
  transformIndexHtml(html) {
    if (!html.includes('<div id="root"></div>') || !html.includes('</head>')) {
      throw new Error('index.html has no empty <div id="root"></div> and </head> for the boot shell');
    }
    return html
      .replace('</head>', `<style>${BOOT_SHELL_CSS}</style></head>`)
      .replace('<div id="root"></div>', `<div id="root">${BOOT_SHELL_HTML}</div>`);
  },
});

/**
 * The Content-Security-Policy (scripts/lib/content-security-policy.ts). The build computes it from
 * the VITE_* values the bundle gets and the finished index.html, puts it in index.html as a <meta>
 * and writes `_headers` next to it. `vite preview` sends that file's policy with every response: it
 * is read from the build, not recomputed, because preview runs without the build's environment.
 */
const contentSecurityPolicy = (): Plugin => {
  let env: RawEnv = {};
  return {
    name: 'ddex-content-security-policy',
    configResolved(config) {
      env = Object.fromEntries(
        Object.entries(config.env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    },
    generateBundle: {
      // After Vite has written index.html (scripts, preloads, the boot shell): the hashes are of the final page.
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset')
          return this.error('the build has no index.html for its Content-Security-Policy');
        const html = typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source);
        const policy = pagePolicy(env, html);
        page.source = withPolicyMeta(html, policy.meta);
        this.emitFile({ type: 'asset', fileName: HEADERS_FILE, source: headersFile(policy.header) });
      },
    },
    configurePreviewServer(server) {
      const file = resolve(server.config.root, server.config.build.outDir, HEADERS_FILE);
      let warned = false;
      server.middlewares.use((_request, response, next) => {
        // Read per request: a rebuild (the e2e watch mode) replaces the file under a running preview.
        let policy: string | null = null;
        try {
          policy = policyFromHeadersFile(readFileSync(file, 'utf8'));
        } catch {
          // No build in outDir (yet): served without the header, said once below.
        }
        if (policy) response.setHeader(POLICY_HEADER, policy);
        else if (!warned) {
          warned = true;
          server.config.logger.warn(`No ${POLICY_HEADER} in ${file}: serving without the header.`);
        }
        next();
      });
    },
  };
};

export default defineConfig({
  plugins: [react(), bootShell(), contentSecurityPolicy()],
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
            {
              // The portal's own statecharts, domain and words in one entry chunk: once a lazy tab
              // imports a few of them (the Trading tab's machines share helpers with the portal's),
              // the bundler would otherwise split those out into small chunks that compress worse.
              name: 'portal',
              test: /src[\\/](machines|domain|copy)[\\/](?!(swap|market|trading|dex|bots?)[-.])/,
            },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});

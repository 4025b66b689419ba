import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, runnerImport, type Plugin, type ResolvedConfig } from 'vite';
import {
  FRAME_HEADER,
  HEADERS_FILE,
  headersFile,
  pagePolicy,
  POLICY_HEADER,
  policyFromHeadersFile,
  trustedInlineScripts,
  withPolicyMeta,
} from './scripts/lib/content-security-policy.ts';
import { buildEnvProblem } from './scripts/lib/build-env.ts';
import { styledIds } from './scripts/lib/styled-ids.ts';
import type { RawEnv } from './src/config/app-config.ts';
import { cssVariables } from './src/ui/theme.ts';

/** The build's VITE_* values, exactly those the bundle's `import.meta.env` holds. */
const viteEnv = (config: ResolvedConfig): RawEnv =>
  Object.fromEntries(
    Object.entries(config.env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

/** Stops a build given a VITE_ value that must not ship (scripts/lib/build-env.ts). */
const refuseForbiddenEnv = (): Plugin => ({
  name: 'ddex-refuse-forbidden-env',
  apply: 'build',
  configResolved(config) {
    const problem = buildEnvProblem(viteEnv(config));
    if (problem) throw new Error(problem);
  },
});

/**
 * The first screen in index.html (src/prerender.tsx): its HTML in #root and its styles in <head>,
 * so the page paints before any script runs and src/main.tsx hydrates it. The prerender runs in a
 * module runner of this build, with the build's VITE_* values: each build (the e2e layer makes
 * three in one process) gets the HTML of its own configuration. `npm run dev` keeps an empty #root.
 */
const prerenderFirstScreen = (): Plugin => {
  let config: ResolvedConfig;
  return {
    name: 'ddex-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async transformIndexHtml(html) {
      if (!html.includes('<div id="root"></div>') || !html.includes('</head>')) {
        throw new Error('index.html has no empty <div id="root"></div> and </head> for the prerendered page');
      }
      // Its type is src/prerender.tsx's, restated: importing it would type-check the views for Node.
      const { module } = await runnerImport<{ prerender(env: RawEnv): { html: string; styleTags: string } }>(
        '/src/prerender.tsx',
        {
          root: config.root,
          mode: config.mode,
          logLevel: 'error',
          // The same component ids as the bundle's, whatever order this module graph makes them in.
          plugins: [styledIds()],
          // The runner leaves packages to Node, which gives a CommonJS module's `exports` object as
          // its default export: `import styled from 'styled-components'` would not be `styled`.
          // Its ES module build is run in the runner instead, as the bundle includes it.
          environments: {
            inline: { resolve: { noExternal: ['styled-components'], mainFields: ['module'] } },
          },
        },
      );
      const page = module.prerender(viteEnv(config));
      // The inline script in <head> sets html[data-theme] before the first paint; without script
      // the page keeps the light theme's colours.
      const noScriptTheme = `<style>html:not([data-theme]) { ${cssVariables('light')} }</style>`;
      return html
        .replace('</head>', `${noScriptTheme}${page.styleTags}</head>`)
        .replace('<div id="root"></div>', `<div id="root">${page.html}</div>`);
    },
  };
};

/**
 * The Content-Security-Policy (scripts/lib/content-security-policy.ts). The build computes it from
 * the VITE_* values the bundle gets and the finished index.html, puts it in index.html as a <meta>
 * and writes `_headers` next to it. `vite preview` sends that file's policy with every response: it
 * is read from the build, not recomputed, because preview runs without the build's environment.
 */
const contentSecurityPolicy = (): Plugin => {
  let env: RawEnv = {};
  let root = '.';
  return {
    name: 'ddex-content-security-policy',
    configResolved(config) {
      env = viteEnv(config);
      root = config.root;
    },
    generateBundle: {
      // After Vite has written index.html (scripts, preloads, the prerendered page): the hashes are of the final page.
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type !== 'asset')
          return this.error('the build has no index.html for its Content-Security-Policy');
        const html = typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source);
        const source = readFileSync(resolve(root, 'index.html'), 'utf8');
        const policy = pagePolicy(env, html, trustedInlineScripts(source, html));
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
        if (policy) {
          response.setHeader(POLICY_HEADER, policy);
          response.setHeader(FRAME_HEADER, 'DENY');
        } else if (!warned) {
          warned = true;
          server.config.logger.warn(`No ${POLICY_HEADER} in ${file}: serving without the header.`);
        }
        next();
      });
    },
  };
};

export default defineConfig({
  plugins: [refuseForbiddenEnv(), styledIds(), react(), prerenderFirstScreen(), contentSecurityPolicy()],
  define: {
    // Vite turns `process.env` into `{}` in browser code. The Tatum SDK reads its REST base from
    // process.env.TATUM_URL (there is no option for it), which the Tatum service sets on
    // globalThis.process before each call; this keeps that lookup alive and is `{}` otherwise.
    'process.env': '(globalThis.process?.env ?? {})',
  },
  resolve: {
    // @xstate/react reads snapshots through use-sync-external-store's shim, which carries a
    // polyfill for React before 18. This portal runs React 19: the same hooks without the polyfill
    // read React's own useSyncExternalStore, for less of the entry's budget.
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector$/,
        replacement: 'use-sync-external-store/with-selector',
      },
      { find: /^use-sync-external-store\/shim$/, replacement: 'use-sync-external-store' },
    ],
  },
  build: {
    // The polyfill only fetches the entry's modulepreloads where a browser cannot (Firefox before
    // 115, Safari before 17), and it costs every visitor 0.2 kB gzip of the entry's budget.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs (React, styled-components, XState) in one chunk of its own: it changes
          // only with a dependency bump, so browsers keep it across deploys, and one chunk compresses
          // better than the several small ones the lazy chunks would otherwise split it into. XState's
          // graph module is left to the one that uses it, the developer panel's diagrams.
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|styled-components|stylis|xstate(?![\\/]dist[\\/]xstate-graph)|@xstate[\\/]react|use-sync-external-store)[\\/]/,
            },
            {
              // The portal's own statecharts, domain and words in one entry chunk: once a lazy tab
              // imports a few of them (the Trading tab's machines share helpers with the portal's),
              // the bundler would otherwise split those out into small chunks that compress worse.
              // The tabs' files, the prose pages' words (copy/faq.ts, privacy.ts, terms.ts), the
              // history dialog's (copy/history.ts), adding DDEX to the wallet's (watch-token*.ts,
              // with its request) and the faucet's (faucet*.ts, with a session) load with their lazy
              // code instead. The file's name decides,
              // whichever folder of the layer it sits in.
              name: 'portal',
              test: /src[\\/](machines|domain|copy)[\\/](?:[^\\/]+[\\/])*(?![^\\/]*[\\/])(?!(swap|market|trading|dex|bots?|history|faq|privacy|terms|watch-token|local-wallet|dialogs|faucet)[-.])/,
            },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});

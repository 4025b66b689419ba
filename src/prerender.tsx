import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { prerenderedPortal, tokenConfigured, uiSettings } from './app/boot.ts';
import { readAppConfig, type RawEnv } from './config/app-config.ts';
import { App } from './ui/App.tsx';

// The first screen as HTML, rendered at build time (the `ddex-prerender` plugin in vite.config.ts
// writes it into index.html's #root, its styles into <head>), so the page paints before any
// script has run; src/main.tsx then hydrates it. It is a visitor's screen: nobody signed in, the
// wallet still being looked for. Its portal is created and never started (src/app/boot.ts), so no
// service is called, no timer set, nothing reaches the network.

export type Prerendered = { html: string; styleTags: string };

/** The tabs' starters are only tested for presence here; the views never call them before hydration. */
const notInPrerender = () => Promise.reject(new Error('The prerendered page starts no tab'));

/** `env`: the build's VITE_* values, the same the bundle is built with. */
export function prerender(env: RawEnv): Prerendered {
  const config = readAppConfig(env);
  const settings = uiSettings(config, {
    startTrading: config.uniswapRouter !== null && tokenConfigured(config) ? notInPrerender : null,
    startBots: config.supabase !== null ? notInPrerender : null,
  });
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <StrictMode>
          <App portal={prerenderedPortal(config)} settings={settings} />
        </StrictMode>,
      ),
    );
    return { html, styleTags: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}

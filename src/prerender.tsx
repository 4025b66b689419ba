import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { prerenderedPortal, uiSettings } from './app/boot.ts';
import { readAppConfig, type RawEnv } from './config/app-config.ts';
import { App } from './ui/App.tsx';

// The first screen as HTML, rendered at build time (the `ddex-prerender` plugin in vite.config.ts
// writes it into index.html's #root, its styles into <head>), so the page paints before any
// script has run; src/main.tsx then hydrates it. It is a visitor's screen: nobody signed in, the
// wallet still being looked for. Its portal is created and never started (src/app/boot.ts), so no
// service is called, no timer set, nothing reaches the network.

export type Prerendered = { html: string; styleTags: string };

/** `env`: the build's VITE_* values, the same the bundle is built with. */
export function prerender(env: RawEnv): Prerendered {
  const config = readAppConfig(env);
  const settings = uiSettings(config);
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

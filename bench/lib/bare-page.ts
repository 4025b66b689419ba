import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, preview, type PreviewServer } from 'vite';
import { PROJECT_DIR } from '../../scripts/lib/portal-build.ts';

// The yardstick for first paint: what `npm create vite` gives for React, a
// heading, a counter and a paragraph, built for production with the same Vite
// and React as the portal. Its sources live under node_modules/.cache so they
// resolve the project's packages and never show up in git.

const SOURCE_DIR = join(PROJECT_DIR, 'node_modules', '.cache', 'ddex-bench', 'bare-page');

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Vite + React</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.tsx"></script>
  </body>
</html>
`;

const MAIN_TSX = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [count, setCount] = useState(0);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>Vite + React</h1>
      <button onClick={() => setCount((value) => value + 1)}>count is {count}</button>
      <p>Edit main.tsx and save to test HMR.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`;

export async function buildBarePage(outDir: string): Promise<void> {
  rmSync(SOURCE_DIR, { recursive: true, force: true });
  mkdirSync(SOURCE_DIR, { recursive: true });
  writeFileSync(join(SOURCE_DIR, 'index.html'), INDEX_HTML);
  writeFileSync(join(SOURCE_DIR, 'main.tsx'), MAIN_TSX);
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({
      root: SOURCE_DIR,
      configFile: false,
      envDir: false,
      mode: 'production',
      logLevel: 'error',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, reportCompressedSize: false },
    });
  } finally {
    if (nodeEnv === undefined) Reflect.deleteProperty(process.env, 'NODE_ENV');
    else process.env['NODE_ENV'] = nodeEnv;
  }
}

export function serveBarePage(outDir: string, port: number): Promise<PreviewServer> {
  return preview({
    root: SOURCE_DIR,
    configFile: false,
    envDir: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
}

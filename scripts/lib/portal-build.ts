import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';

// Production builds of the portal for the e2e layer, the entry-size check and
// the benchmarks: the same `vite build` as `npm run build`, with exactly the
// VITE_* values given, served by `vite preview` on 127.0.0.1.

export const PROJECT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CONFIG_FILE = join(PROJECT_DIR, 'vite.config.ts');

/**
 * `vite build` of the portal as `npm run build` makes it, with exactly `env` as its VITE_* values:
 * `.env` files are not read (envDir: false), VITE_* keys of the caller's shell are set aside, and
 * NODE_ENV is 'production' (Vitest sets it to 'test', which would give React's development build).
 */
export async function buildPortal(outDir: string, env: Record<string, string>): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const saved = Object.entries(process.env).filter(([key]) => key.startsWith('VITE_') || key === 'NODE_ENV');
  for (const [key] of saved) Reflect.deleteProperty(process.env, key);
  Object.assign(process.env, env, { NODE_ENV: 'production' });
  try {
    await build({
      root: PROJECT_DIR,
      configFile: CONFIG_FILE,
      mode: 'production',
      envDir: false,
      // Chunk-size warnings are `npm run build`'s business, not the callers'.
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, reportCompressedSize: false },
    });
  } finally {
    for (const key of [...Object.keys(env), 'NODE_ENV']) Reflect.deleteProperty(process.env, key);
    for (const [key, value] of saved) process.env[key] = value;
  }
}

/** Serves a build with `vite preview` (and so with the headers vite.config.ts gives preview). */
export function servePortal(outDir: string, port: number): Promise<PreviewServer> {
  return preview({
    root: PROJECT_DIR,
    configFile: CONFIG_FILE,
    mode: 'production',
    envDir: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done) => server.close(() => done()));
}

import { mkdirSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
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

/** A port held from now on for a build that `serve` puts behind it later. */
export interface HeldPort {
  readonly url: string;
  serve(outDir: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Holds a port for a build that does not exist yet. The e2e gateways must know the apps' origins
 * before the apps can be built with the gateways' URLs, and a port only looked up and released
 * (`freePort`) can meanwhile be taken by any socket on the machine, an outgoing connection's local
 * port included. So the port stays bound the whole time: it answers 503 until `serve` hands its
 * requests to a `vite preview` of the build (which itself listens on a port nobody uses).
 */
export async function holdPort(): Promise<HeldPort> {
  let handle: RequestListener = (_request, response) => {
    response.writeHead(503, { 'content-type': 'text/plain' }).end('The portal is still being built.');
  };
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  let preview: PreviewServer | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    async serve(outDir) {
      await preview?.close();
      preview = await servePortal(outDir, 0);
      const { middlewares } = preview;
      handle = (request, response) => middlewares(request, response);
    },
    async close() {
      await preview?.close();
      await closeServer(server);
    },
  };
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

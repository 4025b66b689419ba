import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { closeServer } from '../../scripts/lib/portal-build.ts';

// A build served as a static host serves it, for the phone figures: `vite preview` sends every file
// uncompressed, which a phone on a slow network would never get. Here text (HTML, JS, CSS, JSON,
// SVG) goes out gzip-compressed to a browser that accepts it, at zlib's default level (the level
// `npm run size` counts), hashed files under /assets/ are cached for a year and everything else is
// revalidated, a path without a file gets index.html (as a single-page app's host rewrites it),
// and the headers of the build's `_headers` file (Netlify and Cloudflare Pages read it: the
// Content-Security-Policy) go out with the paths it names. Nothing else: no HTTP/2, no brotli.

const TYPES: Record<string, { type: string; text: boolean }> = {
  '.html': { type: 'text/html; charset=utf-8', text: true },
  '.js': { type: 'text/javascript; charset=utf-8', text: true },
  '.mjs': { type: 'text/javascript; charset=utf-8', text: true },
  '.css': { type: 'text/css; charset=utf-8', text: true },
  '.json': { type: 'application/json; charset=utf-8', text: true },
  '.webmanifest': { type: 'application/manifest+json; charset=utf-8', text: true },
  '.svg': { type: 'image/svg+xml', text: true },
  '.txt': { type: 'text/plain; charset=utf-8', text: true },
  '.png': { type: 'image/png', text: false },
  '.jpg': { type: 'image/jpeg', text: false },
  '.webp': { type: 'image/webp', text: false },
  '.ico': { type: 'image/x-icon', text: false },
  '.woff2': { type: 'font/woff2', text: false },
  '.wasm': { type: 'application/wasm', text: false },
};
const OTHER = { type: 'application/octet-stream', text: false };

/** What a host sends for hashed build output (Vite names every file under /assets/ by its content). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** ... and for everything else, index.html above all: cached, but asked again before each use. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Header rules of a Netlify-style `_headers` file: a path (`*` matches anything) and its headers. */
export type HeaderRule = { pattern: RegExp; headers: [string, string][] };

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** True when the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') return false;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    return q === undefined || Number(q) > 0;
  });
}

export type CompressedServer = { url: string; close(): Promise<void> };

/** Serves `dir` (a `vite build` output) on 127.0.0.1:`port` (0: any free port). */
export async function serveCompressed(dir: string, port = 0): Promise<CompressedServer> {
  const headersPath = join(dir, '_headers');
  const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];
  // Compressed once per file, as a host's cache keeps them.
  const gzipped = new Map<string, Buffer>();

  const fileFor = (pathname: string): string | null => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    const relative = normalize(decoded).replace(/^[/\\]+/, '');
    if (relative.startsWith('..') || relative.split(sep).includes('..')) return null;
    // The host's own file is not served, as Netlify does not serve it.
    if (relative === '_headers') return null;
    const path = join(dir, relative || 'index.html');
    if (existsSync(path) && statSync(path).isFile()) return path;
    // A path with no file extension is a page of the app: index.html, as the host rewrites it.
    return extname(relative) === '' ? join(dir, 'index.html') : null;
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const path = fileFor(pathname);
    if (!path) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const kind = TYPES[extname(path).toLowerCase()] ?? OTHER;
    for (const rule of rules) {
      if (rule.pattern.test(pathname))
        for (const [name, value] of rule.headers) response.setHeader(name, value);
    }
    response.setHeader('Content-Type', kind.type);
    response.setHeader('Cache-Control', pathname.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    let body: Buffer = readFileSync(path);
    if (kind.text) {
      response.setHeader('Vary', 'Accept-Encoding');
      if (acceptsGzip(request.headers['accept-encoding'])) {
        let compressed = gzipped.get(path);
        if (!compressed) gzipped.set(path, (compressed = gzipSync(body)));
        body = compressed;
        response.setHeader('Content-Encoding', 'gzip');
      }
    }
    response.setHeader('Content-Length', body.length);
    response.writeHead(200);
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const server = createServer(handle);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}`, close: () => closeServer(server) };
}

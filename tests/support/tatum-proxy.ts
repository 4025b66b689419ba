import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for Tatum on 127.0.0.1, between the functions and the stack's emulator: it forwards
// every request to the emulator, refuses it as Tatum refuses (403, in Tatum's error shape), or
// drops the connection as an unreachable Tatum does, as the test says. It is started before the
// gateway it fronts, so it learns where the emulator is afterwards (`forwardTo`).

export type TatumProxyMode = 'up' | 'refusing' | 'down';

export type TatumProxy = {
  /** The REST base to give the functions as TATUM_API_URL, with the slash the SDK needs. */
  url: string;
  mode: TatumProxyMode;
  /** Each request answered, with the mode it met. */
  seen: { method: string; path: string; mode: TatumProxyMode }[];
  /** The emulator's REST base (`…/tatum/v4/`) that requests go to while up. */
  forwardTo(target: string): void;
  close(): Promise<void>;
};

const BASE = '/tatum/v4/';

export async function startTatumProxy(): Promise<TatumProxy> {
  let target: string | null = null;
  const proxy: TatumProxy = {
    url: '',
    mode: 'up',
    seen: [],
    forwardTo: (base) => {
      target = base;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const mode = proxy.mode;
    const path = (request.url ?? '/').replace(BASE, '');
    proxy.seen.push({ method: request.method ?? 'GET', path, mode });
    if (mode === 'down') {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (mode === 'refusing' || target === null) {
        const body = {
          statusCode: 403,
          errorCode: 'subscription.plan.limit',
          message: 'Plan limit reached.',
        };
        response.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0]),
        ),
      );
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${path}`, { method: request.method, headers, body })
        .then(async (answer) => {
          const text = await answer.text();
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch((error: unknown) => {
          response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify(String(error)));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}${BASE}`;
  return proxy;
}

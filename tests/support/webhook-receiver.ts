import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

// A stand-in for a webhook receiver on 127.0.0.1: records what the Tatum
// emulator POSTs and answers with the statuses a test scripts (for instance
// 500 twice, then 200) to exercise retries.

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; status: number };

export type WebhookReceiver = {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses for the next requests, in order; once used up every request gets 200. */
  answerWith(...statuses: number[]): void;
  /** Resolves when `count` requests have been answered 2xx. */
  waitForDelivered(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let script: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = script.shift() ?? 200;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const delivered = () => received.filter((r) => r.status >= 200 && r.status < 300);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith: (...statuses) => {
      script = statuses;
    },
    waitForDelivered: (count, timeoutMs = 15_000) =>
      vi.waitFor(
        () => {
          const answered = delivered();
          if (answered.length < count) {
            throw new Error(
              `expected ${count} delivered webhooks, got ${answered.length} in ${timeoutMs} ms`,
            );
          }
          return answered;
        },
        { timeout: timeoutMs, interval: 25 },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  BackendError,
  createSupabaseClient,
  createSupabaseService,
  NETWORK_ERROR,
  type SupabaseService,
} from '../../src/services/supabase/index.ts';

// The portal's supabase-js client reports a failed read after the one request that failed:
// postgrest-js would otherwise try a GET three more times over 7 s (on 503, 520 or no answer),
// and the machines, which own the retry policy, would hear of the outage only then
// (docs/reliability-and-security.md#faults). A server on 127.0.0.1 stands in for a backend that
// is down; it answers with Retry-After: 0, so a client that did retry would do so at once and be
// counted, rather than merely be late.

const USER_ID = '6f41357b-5815-4fd0-bac4-aaf8b0eeee23';

type Outage = { status: number } | 'drop';
let outage: Outage = { status: 503 };
/** The REST requests the backend received. */
const reads: string[] = [];
let backend: Server;
let url: string;

beforeAll(async () => {
  backend = createServer((request, response) => {
    reads.push(`${request.method ?? ''} ${request.url ?? ''}`);
    if (outage === 'drop') {
      request.socket.destroy();
      return;
    }
    // As PostgREST says it while it cannot reach the database.
    response
      .writeHead(outage.status, { 'content-type': 'application/json', 'retry-after': '0' })
      .end(
        JSON.stringify({ code: 'PGRST002', message: 'Could not query the database for the schema cache.' }),
      );
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => backend.close(resolve));
});

function service(): SupabaseService {
  return createSupabaseService(
    createSupabaseClient({ url, anonKey: 'anon-key', realtimeTransport: WebSocket }),
    {
      siteUrl: 'http://127.0.0.1:5173',
    },
  );
}

async function refusal(read: Promise<unknown>): Promise<BackendError> {
  const error: unknown = await read.then(
    () => new Error('expected the read to fail'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BackendError)) throw error;
  return error;
}

describe('the supabase client: a failed read is reported at once', () => {
  it.each([503, 520])('a read the backend answers %i is reported after one request', async (status) => {
    outage = { status };
    reads.length = 0;
    const profile = await refusal(service().fetchProfile(USER_ID));
    expect(profile).toMatchObject({ status, code: 'PGRST002' });
    expect(reads).toEqual([expect.stringMatching(/^GET \/rest\/v1\/profiles\?/)]);

    reads.length = 0;
    const notifications = await refusal(service().listNotifications(USER_ID));
    expect(notifications).toMatchObject({ status, code: 'PGRST002' });
    expect(reads).toEqual([expect.stringMatching(/^GET \/rest\/v1\/user_notifications\?/)]);
  });

  it('a read whose connection drops is reported as a network error after one request', async () => {
    outage = 'drop';
    reads.length = 0;
    const error = await refusal(service().listTransactions(USER_ID));
    expect(error).toMatchObject({ code: NETWORK_ERROR, status: null });
    expect(reads).toEqual([expect.stringMatching(/^GET \/rest\/v1\/transactions\?/)]);
  });
});

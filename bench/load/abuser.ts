import WebSocket from 'ws';
import type { StackDescription } from './stack.ts';

// One abusive Realtime client: a signed-in user whose single socket asks for
// as many channels and bindings as it can, every binding matching every
// notification (so each change costs the server a visibility check for it),
// and then stops reading, so whatever the server sends it piles up. It speaks
// the Phoenix wire protocol itself (vsn 2.0.0), as supabase-js would not be
// made to misbehave like this.

export type AbuseAttempt = {
  /** Joins sent at once on the one socket. */
  channels: number;
  /** postgres_changes bindings in each join. */
  bindingsPerChannel: number;
};

export type AbuserFigures = AbuseAttempt & {
  accepted: number;
  /** Refused joins by reason. */
  refused: Map<string, number>;
  /** Joins that had no answer within the time allowed. */
  unanswered: number;
  /** How the server closed the socket (null: still open when the run ended). */
  closedWith: { code: number; reason: string } | null;
  /** postgres_changes frames the socket got, read after the run. */
  changesRead: number;
};

const JOIN_ANSWER_MS = 30_000;
const CLOSE_WAIT_MS = 15_000;

type Reply = { status: unknown; reason: unknown };

function replyOf(frame: unknown[]): Reply | null {
  const [, , , event, payload] = frame;
  if (event !== 'phx_reply' || typeof payload !== 'object' || payload === null) return null;
  const { status, response } = payload as { status?: unknown; response?: { reason?: unknown } };
  return { status, reason: response?.reason };
}

export class Abuser {
  private readonly ws: WebSocket;
  private readonly replies = new Map<string, Reply>();
  private closedWith: { code: number; reason: string } | null = null;
  private changesRead = 0;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as unknown[];
      const [, ref, , event] = frame;
      if (event === 'postgres_changes') this.changesRead++;
      const reply = replyOf(frame);
      if (reply && typeof ref === 'string') this.replies.set(ref, reply);
    });
    ws.on('close', (code, reason) => (this.closedWith = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  static async connect(stack: StackDescription): Promise<Abuser> {
    const url = new URL('/realtime/v1/websocket', stack.url);
    url.protocol = 'ws:';
    url.searchParams.set('apikey', stack.anonKey);
    url.searchParams.set('vsn', '2.0.0');
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new Abuser(ws);
  }

  /** Sends every join at once, waits for their answers, then stops reading. */
  async flood(accessToken: string, attempt: AbuseAttempt): Promise<void> {
    // Distinct bindings (a repeated one would be the same binding), each matching every row.
    const bindings = Array.from({ length: attempt.bindingsPerChannel }, (_, i) => ({
      event: '*',
      schema: 'public',
      table: 'user_notifications',
      filter: `title=neq.abuse-${i}`,
    }));
    for (let i = 0; i < attempt.channels; i++) {
      const ref = String(i + 1);
      const payload = { config: { postgres_changes: bindings }, access_token: accessToken };
      this.ws.send(JSON.stringify([ref, ref, `realtime:abuse-${i}`, 'phx_join', payload]));
    }
    const deadline = performance.now() + JOIN_ANSWER_MS;
    while (this.replies.size < attempt.channels && performance.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
    }
    this.ws.pause();
  }

  /** Reads again, and gives the server a while to say it closed the socket. */
  async finish(attempt: AbuseAttempt): Promise<AbuserFigures> {
    this.ws.resume();
    const deadline = performance.now() + CLOSE_WAIT_MS;
    while (this.closedWith === null && performance.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
    }
    const refused = new Map<string, number>();
    let accepted = 0;
    for (const reply of this.replies.values()) {
      if (reply.status === 'ok') accepted++;
      else {
        const reason = typeof reply.reason === 'string' ? reply.reason : 'no reason';
        refused.set(reason, (refused.get(reason) ?? 0) + 1);
      }
    }
    const figures: AbuserFigures = {
      ...attempt,
      accepted,
      refused,
      unanswered: attempt.channels - this.replies.size,
      closedWith: this.closedWith,
      changesRead: this.changesRead,
    };
    this.ws.terminate();
    return figures;
  }
}

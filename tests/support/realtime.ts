import type { RealtimeChannel } from '@supabase/supabase-js';
import { vi } from 'vitest';
import WebSocket from 'ws';

/** Subscribes a supabase-js channel and resolves once the server confirms it, or fails clearly. */
export function subscribed(channel: RealtimeChannel, timeoutMs = 5_000): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('channel did not reach SUBSCRIBED')), timeoutMs);
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') {
        clearTimeout(timer);
        resolve(channel);
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        clearTimeout(timer);
        reject(new Error(`subscribe failed: ${status} ${error?.message ?? ''}`));
      }
    });
  });
}

export const WAIT_MS = 5_000;

/** Polls until read() yields a value (vi.waitFor), failing with what was awaited. */
export function arrived<T>(read: () => T | undefined, what: string, timeoutMs = WAIT_MS): Promise<T> {
  return vi.waitFor(
    () => {
      const value = read();
      if (value === undefined) throw new Error(`still waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

export type Vsn = '1.0.0' | '2.0.0';

export type Frame = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
};

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function socketUrl(baseUrl: string, params: Record<string, string>): string {
  const url = new URL('/realtime/v1/websocket', baseUrl);
  url.protocol = 'ws:';
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** A user_notifications binding on one user's rows, as the portal subscribes. */
export function notificationsOf(userId: string): Record<string, unknown> {
  return { event: '*', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${userId}` };
}

/** The changed row a postgres_changes frame carries. */
export function recordOf(frame: Frame): Record<string, unknown> {
  const data = frame.payload['data'];
  if (!isRecord(data) || !isRecord(data['record'])) throw new Error('postgres_changes without a record');
  return data['record'];
}

/** The reason of an error phx_reply. */
export function reasonOf(reply: Frame): unknown {
  const response = reply.payload['response'];
  return isRecord(response) ? response['reason'] : undefined;
}

/** A raw Phoenix client over ws that records every frame the server sends. */
export class RawSocket {
  readonly frames: Frame[] = [];
  readonly rawFrames: unknown[] = [];
  /** How the server closed the socket, once it has. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextRef = 1;

  private constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
  ) {
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('message', (data) => {
      const parsed: unknown = JSON.parse(data.toString());
      this.rawFrames.push(parsed);
      const parts = Array.isArray(parsed)
        ? parsed
        : isRecord(parsed)
          ? [parsed['join_ref'], parsed['ref'], parsed['topic'], parsed['event'], parsed['payload']]
          : [];
      const [joinRef, ref, topic, event, payload] = parts as unknown[];
      this.frames.push({
        joinRef: text(joinRef),
        ref: text(ref),
        topic: text(topic) ?? '',
        event: text(event) ?? '',
        payload: isRecord(payload) ? payload : {},
      });
    });
  }

  /**
   * A socket on `baseUrl`. `from` is the loopback address it connects from (127.0.0.2, …), so a
   * test can be several clients at different addresses while all traffic stays on this machine.
   */
  static async open(baseUrl: string, apikey: string, vsn: Vsn, from?: string): Promise<RawSocket> {
    const ws = new WebSocket(socketUrl(baseUrl, { apikey, vsn }), from ? { localAddress: from } : {});
    const socket = new RawSocket(ws, vsn);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  ref(): string {
    return String(this.nextRef++);
  }

  sendText(data: string): void {
    this.ws.send(data);
  }

  send(frame: Frame): void {
    const { joinRef, ref, topic, event, payload } = frame;
    this.sendText(
      JSON.stringify(
        this.vsn === '2.0.0'
          ? [joinRef, ref, topic, event, payload]
          : { join_ref: joinRef, ref, topic, event, payload },
      ),
    );
  }

  /** The first frame from index `from` on that satisfies the predicate. */
  waitForFrame(predicate: (frame: Frame) => boolean, what: string, from = 0): Promise<Frame> {
    return arrived(() => this.frames.slice(from).find(predicate), what);
  }

  /** Sends a request and waits for the phx_reply carrying its ref. */
  async request(topic: string, event: string, payload: Record<string, unknown>, joinRef?: string) {
    const ref = this.ref();
    this.send({ joinRef: joinRef ?? null, ref, topic, event, payload });
    return this.waitForFrame(
      (f) => f.event === 'phx_reply' && f.ref === ref && f.topic === topic,
      `reply to ${event} on ${topic}`,
    );
  }

  async join(topic: string, accessToken: string, changes: Record<string, unknown>[]) {
    const joinRef = this.ref();
    const reply = await this.request(
      topic,
      'phx_join',
      {
        config: { broadcast: {}, presence: {}, postgres_changes: changes, private: false },
        access_token: accessToken,
      },
      joinRef,
    );
    return { reply, joinRef };
  }

  /**
   * A heartbeat round trip. The server answers frames in order on one socket, so once the reply
   * is here every earlier frame sent on this socket (an access_token, say) has been handled, and
   * everything the server wrote to this socket before it has arrived.
   */
  async roundTrip(): Promise<void> {
    await this.request('phoenix', 'heartbeat', {});
  }

  changesOn(topic: string, from = 0): Frame[] {
    return this.frames.slice(from).filter((f) => f.topic === topic && f.event === 'postgres_changes');
  }

  /** The postgres_changes frame on `topic` carrying the row with this id, once it has arrived. */
  changeOf(topic: string, id: string, from = 0): Promise<Frame> {
    return arrived(
      () => this.changesOn(topic, from).find((f) => recordOf(f)['id'] === id),
      `the change of row ${id} on ${topic}`,
    );
  }

  close(): void {
    this.ws.close();
  }
}

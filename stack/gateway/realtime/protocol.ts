// Phoenix channel frames in the two serializers realtime-js speaks:
// vsn 2.0.0 text frames are arrays [join_ref, ref, topic, event, payload],
// vsn 1.0.0 frames are objects {join_ref, ref, topic, event, payload}.

export type Vsn = '1.0.0' | '2.0.0';

export type PhxMessage = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
};

export type Decoded = { ok: true; message: PhxMessage } | { ok: false; ref: string | null; reason: string };

export function parseVsn(value: string | null): Vsn | null {
  if (value === null || value === '1.0.0') return '1.0.0';
  if (value === '2.0.0') return '2.0.0';
  return null;
}

export function decode(vsn: Vsn, text: string): Decoded {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, ref: null, reason: 'malformed frame: not JSON' };
  }
  let parts: [unknown, unknown, unknown, unknown, unknown];
  if (vsn === '2.0.0') {
    if (!Array.isArray(data) || data.length !== 5) {
      return {
        ok: false,
        ref: null,
        reason: 'malformed frame: expected [join_ref, ref, topic, event, payload]',
      };
    }
    parts = [data[0], data[1], data[2], data[3], data[4]];
  } else {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      return { ok: false, ref: null, reason: 'malformed frame: expected {topic, event, payload, ref}' };
    }
    const o = data as Record<string, unknown>;
    parts = [o['join_ref'] ?? null, o['ref'] ?? null, o['topic'], o['event'], o['payload']];
  }
  const [joinRef, ref, topic, event, payload] = parts;
  const refText = typeof ref === 'string' ? ref : null;
  if (joinRef !== null && typeof joinRef !== 'string') {
    return { ok: false, ref: refText, reason: 'malformed frame: join_ref must be a string or null' };
  }
  if (ref !== null && typeof ref !== 'string') {
    return { ok: false, ref: null, reason: 'malformed frame: ref must be a string or null' };
  }
  if (typeof topic !== 'string' || topic === '' || typeof event !== 'string' || event === '') {
    return { ok: false, ref: refText, reason: 'malformed frame: topic and event must be non-empty strings' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, ref: refText, reason: 'malformed frame: payload must be an object' };
  }
  return {
    ok: true,
    message: { joinRef, ref: refText, topic, event, payload: payload as Record<string, unknown> },
  };
}

export function encode(vsn: Vsn, message: PhxMessage): string {
  return encodeWithPayload(vsn, message, JSON.stringify(message.payload));
}

/**
 * Encodes a message whose payload is already JSON text, so a change's row is serialized once
 * however many channels receive it.
 */
export function encodeWithPayload(vsn: Vsn, message: Omit<PhxMessage, 'payload'>, payload: string): string {
  const [joinRef, ref, topic, event] = [message.joinRef, message.ref, message.topic, message.event].map(
    (value) => JSON.stringify(value),
  );
  if (vsn === '2.0.0') return `[${joinRef},${ref},${topic},${event},${payload}]`;
  return `{"join_ref":${joinRef},"ref":${ref},"topic":${topic},"event":${event},"payload":${payload}}`;
}

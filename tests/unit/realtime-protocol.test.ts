import { describe, expect, it } from 'vitest';
import { decode, encode, parseVsn, type PhxMessage } from '../../stack/gateway/realtime/protocol.ts';

const message: PhxMessage = {
  joinRef: '1',
  ref: '2',
  topic: 'realtime:n',
  event: 'phx_join',
  payload: { config: {} },
};

describe('Phoenix frames', () => {
  it('round-trips both serializers', () => {
    for (const vsn of ['1.0.0', '2.0.0'] as const) {
      expect(decode(vsn, encode(vsn, message))).toEqual({ ok: true, message });
    }
    expect(JSON.parse(encode('2.0.0', message))).toEqual([
      '1',
      '2',
      'realtime:n',
      'phx_join',
      { config: {} },
    ]);
  });

  it('defaults to 1.0.0 like Phoenix and refuses unknown versions', () => {
    expect(parseVsn(null)).toBe('1.0.0');
    expect(parseVsn('2.0.0')).toBe('2.0.0');
    expect(parseVsn('3.0.0')).toBeNull();
  });

  it.each([
    ['2.0.0', 'not json', 'not JSON'],
    ['2.0.0', '[1,2,3]', 'expected [join_ref, ref, topic, event, payload]'],
    ['2.0.0', '[null,"1","t","e",[]]', 'payload must be an object'],
    ['2.0.0', '[null,"1","","e",{}]', 'topic and event must be non-empty strings'],
    ['2.0.0', '[null,5,"t","e",{}]', 'ref must be a string or null'],
    ['1.0.0', '[]', 'expected {topic, event, payload, ref}'],
  ] as const)('explains a malformed %s frame %s', (vsn, text, reason) => {
    const decoded = decode(vsn, text);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toContain(reason);
  });
});

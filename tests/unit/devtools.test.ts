import { describe, expect, it } from 'vitest';
import type { JournalExport } from '../../src/devtools/journal-types.ts';
import { walletMachine } from '../../src/machines/wallet/wallet.machine.ts';
import { activeStateNodes, highlightedDiagram, nodeId } from '../../src/devtools/panel/diagram.ts';
import { displayable, statePaths } from '../../src/devtools/panel/format.ts';
import { parseJournal } from '../../src/devtools/panel/parse-journal.ts';

// The developer panel's pure parts: how it writes states and contexts, how it
// checks an imported journal, and the highlight lines it adds to a diagram.

const recording: JournalExport = {
  format: 'ddex-journal',
  version: 1,
  startedAt: '2025-01-01T00:00:00.000Z',
  truncated: false,
  entries: [
    { seq: 1, at: 0, target: 'portal', source: null, event: { type: 'xstate.init', input: {} } },
    { seq: 2, at: 5, target: 'wallet', source: null, event: { type: 'wallet.connect' } },
  ],
};

describe('statePaths', () => {
  it('writes a state value as one dotted path per active leaf', () => {
    expect(statePaths('ready')).toEqual(['ready']);
    expect(statePaths({ connected: { network: 'rightNetwork', clipboard: 'idle' } })).toEqual([
      'connected.network.rightNetwork',
      'connected.clipboard.idle',
    ]);
    expect(statePaths({ signedIn: {} })).toEqual(['signedIn']);
  });
});

describe('displayable', () => {
  it('redacts secrets the way the journal does, and writes what JSON cannot hold', () => {
    const sealed = { reveal: () => '0xabc', toJSON: () => '[private key]' };
    const user = { id: 'u1' };
    expect(
      displayable({
        password: 'hunter2-secret',
        privateKey: sealed,
        form: { private_key: '0x' + 'a'.repeat(64) },
        session: { access_token: 'eyJ.a.b' },
        empty: '',
        balance: 12n,
        owner: user,
        again: user,
        long: 'x'.repeat(200),
        at: new Date('2025-01-01T00:00:00Z'),
      }),
    ).toEqual({
      password: '[redacted]',
      privateKey: '[redacted]',
      form: { private_key: '[redacted]' },
      session: { access_token: '[redacted]' },
      empty: '',
      balance: '12n',
      owner: { id: 'u1' },
      again: { id: 'u1' },
      long: `${'x'.repeat(120)}…`,
      at: '2025-01-01T00:00:00.000Z',
    });
  });

  it('survives cycles', () => {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = node;
    expect(displayable(node)).toEqual({ name: 'a', self: '[circular]' });
  });
});

describe('parseJournal', () => {
  it('accepts an exported journal', () => {
    expect(parseJournal(JSON.stringify(recording))).toEqual({ ok: true, recording });
  });

  it.each([
    ['text that is no JSON', 'hello', 'notJson'],
    ['an empty file', '', 'notJson'],
    ['a journal cut off half-way', JSON.stringify(recording).slice(0, 80), 'cutOff'],
    ['other JSON', JSON.stringify({ hello: 'world' }), 'wrongFormat'],
    ['an array', '[]', 'wrongFormat'],
    ['another version', JSON.stringify({ ...recording, version: 2 }), 'wrongFormat'],
    [
      'entries of the wrong shape',
      JSON.stringify({ ...recording, entries: [{ seq: 1, event: 'wallet.connect' }] }),
      'wrongFormat',
    ],
    ['a journal marked truncated', JSON.stringify({ ...recording, truncated: true }), 'truncated'],
    [
      'a journal missing its start',
      JSON.stringify({ ...recording, entries: recording.entries.slice(1) }),
      'truncated',
    ],
  ])('refuses %s', (_what, text, problem) => {
    expect(parseJournal(text)).toEqual({ ok: false, problem });
  });
});

describe('highlightedDiagram', () => {
  const value = { connected: { network: 'rightNetwork', clipboard: 'idle', loginHint: 'off' } };

  it('finds every active state node: the compound ones on the way and the leaves', () => {
    expect(activeStateNodes(walletMachine, value).map(nodeId)).toEqual([
      'connected',
      'connected__network',
      'connected__network__rightNetwork',
      'connected__clipboard',
      'connected__clipboard__idle',
      'connected__loginHint',
      'connected__loginHint__off',
    ]);
    expect(activeStateNodes(walletMachine, 'disconnected').map(nodeId)).toEqual(['disconnected']);
    expect(activeStateNodes(walletMachine, 'noSuchState')).toEqual([]);
  });

  it('appends classDef and class lines for the active leaves and their parents', () => {
    const source = highlightedDiagram(walletMachine, value);
    expect(source.startsWith('stateDiagram-v2\n')).toBe(true);
    const lines = source.trimEnd().split('\n');
    expect(lines).toContain(
      '  class connected__network__rightNetwork,connected__clipboard__idle,connected__loginHint__off active',
    );
    expect(lines).toContain(
      '  class connected,connected__network,connected__clipboard,connected__loginHint activeParent',
    );
    expect(lines.some((line) => line.startsWith('  classDef active '))).toBe(true);
    expect(lines.some((line) => line.startsWith('  classDef activeParent '))).toBe(true);
    // Each highlighted id is a state the diagram declares.
    for (const id of ['connected__network__rightNetwork', 'connected__loginHint__off'])
      expect(source).toContain(` as ${id}\n`);
  });
});

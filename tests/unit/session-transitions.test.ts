import { describe, expect, it } from 'vitest';
import { createActor, setup, type AnyActorRef, type AnyStateMachine } from 'xstate';
import { machineDiagram } from '../../scripts/machine-diagram.ts';
import { createJournal } from '../../src/devtools/journal.ts';
import { highlightedDiagram, TAKEN_CLASS, takenEdges } from '../../src/devtools/panel/diagram.ts';
import { takenInJournal } from '../../src/devtools/session-transitions.ts';
import { transitionKey } from '../../src/devtools/transition-keys.ts';

// The developer panel's "this session's transitions": a session recorded in the
// journal, replayed, and what each machine did named as the generated-path
// coverage names it, then placed on the machine's diagram.

const lamp = setup({}).createMachine({
  id: 'lamp',
  initial: 'off',
  states: {
    off: { on: { 'lamp.toggle': 'on', 'lamp.break': 'broken' } },
    on: { on: { 'lamp.toggle': 'off' } },
    broken: {},
  },
});

const room = setup({ actors: { lamp } }).createMachine({
  id: 'room',
  invoke: { src: 'lamp', id: 'lamp', systemId: 'lamp' },
  initial: 'empty',
  states: { empty: { on: { 'room.enter': 'occupied' } }, occupied: {} },
});

/** The declared transition of `machine` from `state` on `event` (the first alternative). */
function declared(machine: AnyStateMachine, state: string, event: string) {
  const transition = machine.root.states[state]?.transitions.get(event)?.[0];
  if (!transition) throw new Error(`${machine.id} has no ${event} in ${state}`);
  return transitionKey(transition);
}

/** A session of the room, as the journal records it: the lamp switched on and off, nobody entering. */
function recordSession() {
  const recorder = createJournal();
  const portal = createActor(room, { systemId: 'portal', inspect: recorder.inspect }).start();
  const light = portal.system.get('lamp') as AnyActorRef;
  light.send({ type: 'lamp.toggle' });
  light.send({ type: 'lamp.toggle' });
  portal.stop();
  return recorder.journal.export();
}

describe('takenInJournal', () => {
  it("names each machine's transitions and states the session took, and only those", () => {
    const taken = takenInJournal(recordSession(), { machine: room });
    expect(taken['lamp']?.transitions.sort()).toEqual(
      [declared(lamp, 'off', 'lamp.toggle'), declared(lamp, 'on', 'lamp.toggle')].sort(),
    );
    expect(taken['lamp']?.states.sort()).toEqual(['lamp.off', 'lamp.on']);
    // The root started in its initial state and took nothing.
    expect(taken['portal']).toEqual({ states: ['room.empty'], transitions: [] });
  });

  it('refuses a journal that has lost its start, as the replay does', () => {
    const recording = { ...recordSession(), truncated: true };
    expect(() => takenInJournal(recording, { machine: room })).toThrow(/truncated/);
  });
});

describe('the overlay on the diagram', () => {
  const taken = () =>
    takenInJournal(recordSession(), { machine: room })['lamp'] ?? { states: [], transitions: [] };

  it('finds the arrows of the taken transitions, and counts them against all', () => {
    const arrows = machineDiagram(lamp)
      .split('\n')
      .filter((line) => line.includes(' --> '))
      .map((line) => line.trim());
    const { drawn, taken: count, total } = takenEdges(lamp, taken().transitions);
    expect(drawn.map(({ edge, line }) => `${arrows[edge]}#${line}`).sort()).toEqual([
      'off --> on: lamp.toggle#0',
      'on --> off: lamp.toggle#0',
    ]);
    expect({ count, total }).toEqual({ count: 2, total: 3 });
  });

  it('fills the states the session has been in; the current one stays highlighted last', () => {
    const lines = highlightedDiagram(lamp, 'off', taken()).trimEnd().split('\n');
    expect(lines).toContain(`  class off,on ${TAKEN_CLASS}`);
    expect(lines.join('\n')).not.toMatch(/class .*broken/);
    expect(lines.at(-1)).toBe('  class off active');
  });
});

import { describe, expect, it } from 'vitest';
import type { AnyActorLogic } from 'xstate';
import { themeMachine } from '../../../src/machines/theme.machine.ts';
import type { ThemeEvent, ThemeInput, ThemeStoreEvent } from '../../../src/machines/theme.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';

/** A stand-in store: records what the machine persists, and can report a system change as the real one would. */
function start(input: ThemeInput) {
  const h = machineHarness(themeMachine, { input, callbacks: ['themeStore'] });
  const store = h.callback('themeStore');
  const persisted = store.received as ThemeStoreEvent[];
  const systemPrefersDark = (prefersDark: boolean) => {
    const changed: ThemeEvent = { type: 'theme.systemChanged', prefersDark };
    store.emit(changed);
  };
  return { actor: h.actor, persisted, systemPrefersDark };
}

describe('theme machine', () => {
  it.each([
    [{ stored: 'light', systemPrefersDark: true }, 'light'],
    [{ stored: 'dark', systemPrefersDark: false }, 'dark'],
    [{ stored: null, systemPrefersDark: true }, 'dark'],
    [{ stored: null, systemPrefersDark: false }, 'light'],
  ] as const)('starts from %j as %s', (input, theme) => {
    const { actor, persisted } = start(input);
    expect(actor.getSnapshot().value).toBe(theme);
    expect(persisted).toEqual([]);
  });

  it('toggles between light and dark and persists each choice', () => {
    const { actor, persisted } = start({ stored: null, systemPrefersDark: false });
    actor.send({ type: 'theme.toggle' });
    expect(actor.getSnapshot().value).toBe('dark');
    expect(actor.getSnapshot().context.stored).toBe('dark');
    actor.send({ type: 'theme.toggle' });
    expect(actor.getSnapshot().value).toBe('light');
    expect(actor.getSnapshot().context.stored).toBe('light');
    expect(persisted).toEqual([
      { type: 'theme.persist', theme: 'dark' },
      { type: 'theme.persist', theme: 'light' },
    ]);
  });

  it('follows the system preference while nothing is stored, without persisting it', () => {
    const { actor, persisted, systemPrefersDark } = start({ stored: null, systemPrefersDark: false });
    systemPrefersDark(true);
    expect(actor.getSnapshot().value).toBe('dark');
    systemPrefersDark(false);
    expect(actor.getSnapshot().value).toBe('light');
    expect(actor.getSnapshot().context).toEqual({ stored: null, systemPrefersDark: false });
    expect(persisted).toEqual([]);
  });

  it('ignores the system once the user has chosen', () => {
    const { actor, systemPrefersDark } = start({ stored: null, systemPrefersDark: true });
    actor.send({ type: 'theme.toggle' });
    systemPrefersDark(true);
    expect(actor.getSnapshot().value).toBe('light');
  });

  it('ignores the system when a choice was stored before', () => {
    const { actor, systemPrefersDark } = start({ stored: 'dark', systemPrefersDark: true });
    systemPrefersDark(false);
    expect(actor.getSnapshot().value).toBe('dark');
  });

  it('fails loudly when the store is not provided', () => {
    // The machine's own placeholder, run as it is.
    const h = machineHarness(themeMachine, {
      input: { stored: null, systemPrefersDark: false },
      actors: { themeStore: themeMachine.implementations.actors.themeStore as AnyActorLogic },
    });
    expect(h.snapshot().status).toBe('error');
    expect(String(h.snapshot().error)).toContain('The themeStore actor was not provided');
  });
});

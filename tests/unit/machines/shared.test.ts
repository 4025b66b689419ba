import { describe, expect, it } from 'vitest';
import {
  createActor,
  createMachine,
  fromPromise,
  setup,
  type AnyActorLogic,
  type AnyEventObject,
} from 'xstate';
import { authCopy } from '../../../src/copy/index.ts';
import { backoffMs, messageOf, notProvided, reportFact, showToast } from '../../../src/machines/shared.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// What every machine shares: the retry back-off, the words of a failure, the stand-in for an actor
// nobody provided, and the two sends (a toast, a fact) that reach their receiver by system id.

describe('backoffMs', () => {
  it('waits 1, 2 and 5 seconds before the first retries, then every 10 seconds', () => {
    expect([1, 2, 3, 4, 5, 12].map(backoffMs)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });

  it('treats an attempt below the first as the first', () => {
    expect(backoffMs(0)).toBe(1000);
    expect(backoffMs(-3)).toBe(1000);
  });
});

describe('messageOf', () => {
  it('gives what the failure says, else the fallback, else nothing', () => {
    expect(messageOf(new Error('Invalid login credentials'), authCopy.unexpectedError)).toBe(
      'Invalid login credentials',
    );
    expect(messageOf(new Error(' '), authCopy.unexpectedError)).toBe(authCopy.unexpectedError);
    expect(messageOf(null)).toBeUndefined();
  });
});

describe('notProvided', () => {
  it('fails the machine loudly, naming the actor and where it is provided', async () => {
    const machine = setup({ actors: { signIn: fromPromise<string>(notProvided('signIn')) } }).createMachine({
      invoke: { src: 'signIn' },
    });
    // The placeholder itself, run as it is rather than stood in for.
    const h = machineHarness(machine, {
      actors: { signIn: machine.implementations.actors.signIn as AnyActorLogic },
    });
    const failed = new Promise<unknown>((resolve) => h.actor.subscribe({ error: resolve }));
    expect(String(await failed)).toBe(
      'Error: The signIn actor was not provided; src/app/provide-portal.ts provides it from the services.',
    );
  });
});

describe('showToast and reportFact', () => {
  const toast: ToastRequest = { title: 'Saved', variant: 'default' };
  const fact = { type: 'wallet.disconnected' } as const;

  /** A machine that shows a toast and reports a fact when told to, inside a system with `others`. */
  function sender() {
    return setup({
      actions: { showToast, report: reportFact<typeof fact>() },
    }).createMachine({
      on: {
        go: {
          actions: [
            { type: 'showToast', params: toast },
            { type: 'report', params: fact },
          ],
        },
      },
    });
  }

  it('send the toast and the fact to the actor with system id portal, which alone tells the toast actor', () => {
    const received: { to: string; event: AnyEventObject }[] = [];
    const recorder = (to: string) =>
      createMachine({ on: { '*': { actions: ({ event }) => void received.push({ to, event }) } } });
    const root = setup({
      actors: { toast: recorder('toast'), sender: sender() },
    }).createMachine({
      invoke: [
        { id: 'toast', systemId: 'toast', src: 'toast' },
        { id: 'sender', src: 'sender' },
      ],
      on: { '*': { actions: ({ event }) => void received.push({ to: 'portal', event }) } },
    });
    const portal = machineHarness(root, { asRoot: true });
    const child = portal.actor.getSnapshot().children['sender'];
    child?.send({ type: 'go' });
    expect(received).toEqual([
      { to: 'portal', event: { type: 'toast.requested', toast } },
      { to: 'portal', event: fact },
    ]);
  });

  it('send nothing, and do not fail, where the system has no toast and no portal', () => {
    const actor = createActor(sender()).start();
    actor.send({ type: 'go' });
    expect(actor.getSnapshot().status).toBe('active');
  });
});

import { describe, expect, it } from 'vitest';
import { sendTo, setup } from 'xstate';
import type { EventObject } from 'xstate';
import { appCopy, walletCopy, webhookCopy } from '../../../src/copy/index.ts';
import { showToast } from '../../../src/machines/shared.ts';
import type { ToastAction, ToastRequest, ToastRequested } from '../../../src/machines/shared.ts';
import { toastDurations, toastMachine } from '../../../src/machines/toast.machine.ts';
import type { ToastFact } from '../../../src/machines/toast.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const welcome: ToastRequest = { ...appCopy.welcome, durationMs: toastDurations.welcome };
const failed: ToastRequest = { title: webhookCopy.walletRequired.title, variant: 'destructive' };
const switchNetwork: ToastAction = { type: 'wallet.switchNetwork' };
const withAction: ToastRequest = {
  title: walletCopy.wrongNetwork('Sepolia'),
  action: { label: walletCopy.switchNetwork, event: switchNetwork },
};
const actionPressed: ToastFact = { type: 'toast.actionPressed', action: switchNetwork };

function start() {
  const h = machineHarness(toastMachine);
  const { actor, clock } = h;
  const reported = h.facts as ToastFact[];
  const show = (toast: ToastRequest) => actor.send({ type: 'toast.show', toast });
  const shown = () => (actor.getSnapshot().matches('showing') ? actor.getSnapshot().context.toast : null);
  return { actor, clock, reported, show, shown };
}

describe('toast machine', () => {
  it('shows nothing at first', () => {
    const { actor, shown } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(shown()).toBeNull();
  });

  it('shows a toast with the default variant when none is given', () => {
    const { show, shown } = start();
    show({ title: appCopy.welcome.title, description: appCopy.welcome.description });
    expect(shown()).toEqual({
      title: appCopy.welcome.title,
      description: appCopy.welcome.description,
      variant: 'default',
      id: 1,
    });
  });

  it('drops a toast that may only show when nothing else is on screen', () => {
    const { show, shown } = start();
    show(failed);
    show({ ...appCopy.welcome, onlyIfIdle: true });
    expect(shown()?.title).toBe(webhookCopy.walletRequired.title);
  });

  it('numbers every toast, so the same words shown again are a new toast', () => {
    const { show, shown } = start();
    show(failed);
    show(failed);
    expect(shown()).toEqual({ title: webhookCopy.walletRequired.title, variant: 'destructive', id: 2 });
  });

  it('keeps the destructive variant and the action', () => {
    const { show, shown } = start();
    show(failed);
    expect(shown()).toEqual({ title: webhookCopy.walletRequired.title, variant: 'destructive', id: 1 });
    show(withAction);
    expect(shown()?.action).toEqual({ label: walletCopy.switchNetwork, event: switchNetwork });
  });

  it('hides a toast after 5000 ms', () => {
    const { clock, show, shown } = start();
    show(failed);
    clock.increment(toastDurations.default - 1);
    expect(shown()?.title).toBe(failed.title);
    clock.increment(1);
    expect(shown()).toBeNull();
  });

  it('keeps the welcome toast for 6000 ms', () => {
    const { clock, show, shown } = start();
    show(welcome);
    clock.increment(5999);
    expect(shown()?.title).toBe(appCopy.welcome.title);
    clock.increment(1);
    expect(shown()).toBeNull();
  });

  it('replaces the shown toast with a new one and starts its timer again', () => {
    const { clock, show, shown } = start();
    show(welcome);
    clock.increment(3000);
    show(failed);
    expect(shown()?.title).toBe(failed.title);
    expect(shown()?.durationMs).toBeUndefined();
    clock.increment(4999);
    expect(shown()?.title).toBe(failed.title);
    clock.increment(1);
    expect(shown()).toBeNull();
  });

  it('hides on dismiss', () => {
    const { actor, show, shown } = start();
    show(failed);
    actor.send({ type: 'toast.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(shown()).toBeNull();
    expect(actor.getSnapshot().context.toast).toBeNull();
  });

  it("does not let a dismissed toast's timer hide the next one", () => {
    const { actor, clock, show, shown } = start();
    show(failed);
    clock.increment(1000);
    actor.send({ type: 'toast.dismiss' });
    clock.increment(1000);
    show(welcome);
    clock.increment(3000); // the first toast's 5000 ms are over
    expect(shown()?.title).toBe(appCopy.welcome.title);
    clock.increment(3000);
    expect(shown()).toBeNull();
  });

  it('reports the pressed action to the root and hides when the action button is pressed', () => {
    const { actor, reported, show, shown } = start();
    show(withAction);
    actor.send({ type: 'toast.action' });
    expect(reported).toEqual([actionPressed]);
    expect(shown()).toBeNull();
  });

  it('ignores an action press on a toast without an action, and still hides it on dismiss', () => {
    const { actor, reported, show, shown } = start();
    show(failed);
    actor.send({ type: 'toast.action' });
    expect(reported).toEqual([]);
    expect(shown()?.title).toBe(failed.title);
    actor.send({ type: 'toast.dismiss' });
    expect(shown()).toBeNull();
  });

  it('ignores dismiss and action presses while nothing is shown', () => {
    const { actor, reported } = start();
    actor.send({ type: 'toast.dismiss' });
    actor.send({ type: 'toast.action' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(reported).toEqual([]);
  });

  it('works with the shared actions: showToast reaches it through the root, the action reaches the root', () => {
    // A stand-in root with system id `portal` that owns the toast and routes requests as the real root does.
    const received: EventObject[] = [];
    const root = setup({
      types: {} as { events: { type: 'show' } | ToastRequested | EventObject },
      actors: { toast: toastMachine },
      actions: { showToast },
    }).createMachine({
      invoke: { id: 'toast', systemId: 'toast', src: 'toast' },
      on: {
        show: { actions: { type: 'showToast', params: withAction } },
        'toast.requested': {
          actions: sendTo('toast', ({ event }) => ({
            type: 'toast.show',
            toast: (event as ToastRequested).toast,
          })),
        },
        '*': { actions: ({ event }) => void received.push(event) },
      },
    });
    const portal = machineHarness(root, { asRoot: true });
    portal.send({ type: 'show' });
    const toast = portal.actor.system.get('toast');
    expect(toast?.getSnapshot().context.toast?.title).toBe(walletCopy.wrongNetwork('Sepolia'));
    toast?.send({ type: 'toast.action' });
    expect(received).toEqual([actionPressed]);
  });
});

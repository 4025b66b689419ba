import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { appCopy } from '../../src/copy/index.ts';
import type { ToastAction, ToastRequest } from '../../src/machines/shared.ts';
import { toastDurations, toastMachine } from '../../src/machines/toast.machine.ts';
import type { ToastFact } from '../../src/machines/toast.machine.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';

// The one toast on screen (docs/product.md#toasts): the generated paths, each step checked for what
// the toast shows, that a new one replaces the old (the welcome never does), how long it stays,
// and that only its action button reports, with its own action.

type Snapshot = SnapshotFrom<typeof toastMachine>;

const switchNetwork: ToastAction = { type: 'wallet.switchNetwork' };
const requests: ToastRequest[] = [
  { title: 'Saved' },
  { ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true },
  {
    title: 'Failed',
    description: 'Try again',
    variant: 'destructive',
    action: { label: 'Switch', event: switchNetwork },
  },
];

function everyStep(s: Snapshot, { before, facts }: ModelStep<typeof toastMachine>) {
  const reported = facts as ToastFact[];
  const { toast, shown } = s.context;
  const previous = before?.context.toast ?? null;
  if (s.matches('idle')) {
    expect(toast).toBeNull();
    // Only the action button reports, once, with the toast's own action.
    const pressed = previous?.action ? [{ type: 'toast.actionPressed', action: previous.action.event }] : [];
    expect([[], pressed]).toContainEqual(reported);
  } else {
    // The toast as it was asked for, 'default' unless it said otherwise.
    const request = requests.find((candidate) => candidate.title === toast?.title);
    expect(toast).toEqual({ ...request, variant: request?.variant ?? 'default', id: shown });
    expect(reported).toEqual([]);
    const isNew = toast?.id !== previous?.id;
    // Each toast shown is counted, so the same words shown again are still a new toast to announce.
    if (isNew) expect(shown).toBe((before?.context.shown ?? 0) + 1);
    // The welcome must not hide what a user just did: it shows only when nothing else is.
    if (isNew && toast?.onlyIfIdle) expect(previous).toBeNull();
  }
}

describeModel({
  name: 'toast',
  machine: toastMachine,
  events: { 'toast.show': requests.map((toast) => ({ type: 'toast.show', toast })) },
  // How long a toast stays (docs/product.md#constants): its own duration when it asks for one, else
  // the default. The path's clock moves by exactly that; a toast still up after it fails the step.
  delays: { toastDuration: ({ context }) => context.toast?.durationMs ?? toastDurations.default },
  // The toast counter grows forever; which toast is showing is what makes two snapshots differ.
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.toast?.title ?? null]),
  // Every order of toasts, so each one is seen replacing (or, the welcome, not replacing) each other.
  simplePaths: true,
  states: { '*': everyStep },
});

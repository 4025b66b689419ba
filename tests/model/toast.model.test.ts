import { beforeEach, expect } from 'vitest';
import { appCopy } from '../../src/copy/index.ts';
import type { ToastAction, ToastRequest } from '../../src/machines/shared.ts';
import { toastDurations, toastMachine } from '../../src/machines/toast.machine.ts';
import type { ToastFact } from '../../src/machines/toast.machine.ts';
import { describeModel } from './support/index.ts';

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

const reported: ToastFact[] = [];
beforeEach(() => {
  reported.length = 0;
});

describeModel({
  name: 'toast',
  machine: toastMachine,
  provide: { actions: { report: (_, params) => reported.push(params) } },
  events: { 'toast.show': requests.map((toast) => ({ type: 'toast.show', toast })) },
  // The toast counter grows forever; which toast is showing is what makes two snapshots differ.
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.toast?.title ?? null]),
  states: {
    idle: (snapshot) => {
      expect(snapshot.context.toast).toBeNull();
      // Only the action button reports, once, with the toast's own action.
      expect(reported).toEqual(
        reported.length ? [{ type: 'toast.actionPressed', action: switchNetwork }] : [],
      );
    },
    showing: (snapshot) => {
      const shown = requests.find((request) => request.title === snapshot.context.toast?.title);
      expect(snapshot.context.toast).toEqual({
        ...shown,
        variant: shown?.variant ?? 'default',
        id: snapshot.context.shown,
      });
    },
  },
});

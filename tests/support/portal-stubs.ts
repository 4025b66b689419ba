import { createMachine, type AnyEventObject } from 'xstate';
import {
  PORTAL_CHILDREN,
  SESSION_CHILDREN,
  type portalMachine,
} from '../../src/machines/portal/portal.machine.ts';
import type { PortalInput } from '../../src/machines/portal/portal.machine.ts';

type PortalActors = NonNullable<Parameters<typeof portalMachine.provide>[0]['actors']>;

// Stand-ins for the portal's children that only record what the root sends
// them (and the input each was started with), so the root's routing is tested
// on its own.

export const CHILD_IDS = [...PORTAL_CHILDREN, ...SESSION_CHILDREN] as const;

export type Delivery = { to: string; event: AnyEventObject };

/** The event a recorder logs when it is started, with the input it was given. */
export type Started = { type: 'started'; input: unknown };

/** A stand-in for the child `to` that logs its start and everything it is told into `log`. */
export function recordingChild(to: string, log: Delivery[]) {
  return createMachine({
    types: {} as { context: { input: unknown }; input: unknown },
    context: ({ input }) => ({ input }),
    entry: ({ context }) => {
      log.push({ to, event: { type: 'started', input: context.input } satisfies Started });
    },
    on: {
      '*': {
        actions: ({ event }) => {
          log.push({ to, event });
        },
      },
    },
  });
}

export function recordingChildren(log: Delivery[]): PortalActors {
  // The root only sends to its children and reads nothing back, so recorders
  // stand in for machines of any type.
  return Object.fromEntries(CHILD_IDS.map((id) => [id, recordingChild(id, log)])) as unknown as PortalActors;
}

export const PORTAL_INPUT = {
  theme: { stored: null, systemPrefersDark: false },
  auth: { clientAvailable: true },
  expectedChain: { id: 31337, name: 'Hardhat (local)' },
  tokenConfigured: true,
  tabs: { trading: true, bots: true },
} as const satisfies PortalInput;

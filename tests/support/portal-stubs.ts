import { createMachine, type AnyEventObject } from 'xstate';
import type { portalMachine } from '../../src/machines/portal.machine.ts';

type PortalActors = NonNullable<Parameters<typeof portalMachine.provide>[0]['actors']>;

// Stand-ins for the portal's children that only record what the root sends
// them, so the root's routing is tested on its own.

export const CHILD_IDS = [
  'toast', 'tab', 'theme', 'auth', 'profile', 'wallet', 'balances', 'send', 'notifications', 'transactions', 'webhooks',
  'dialogs',
] as const; // prettier-ignore

export type Delivery = { to: string; event: AnyEventObject };

export function recordingChildren(log: Delivery[]): PortalActors {
  const child = (to: string) =>
    createMachine({
      on: {
        '*': {
          actions: ({ event }) => {
            log.push({ to, event });
          },
        },
      },
    });
  // The root only sends to its children and reads nothing back, so recorders
  // stand in for machines of any type.
  return Object.fromEntries(CHILD_IDS.map((id) => [id, child(id)])) as unknown as PortalActors;
}

export const PORTAL_INPUT = {
  theme: { stored: null, systemPrefersDark: false },
  auth: { clientAvailable: true, emailRedirectTo: 'http://127.0.0.1:5173' },
  expectedChain: { id: 31337, name: 'Hardhat (local)' },
  tokenConfigured: true,
  webhookCallbackUrl: 'http://127.0.0.1:54321/functions/v1/process-payments',
} as const;

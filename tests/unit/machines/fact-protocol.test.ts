import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { PortalEvent } from '../../../src/machines/portal/portal.machine.ts';
import { reportFact } from '../../../src/machines/shared.ts';
import type { WalletFact } from '../../../src/machines/wallet/wallet.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// The children's facts are the root's events: a child reports through
// `reportFact<ItsFact>()`, so a fact with a wrong payload does not compile
// (`npm run typecheck` checks the @ts-expect-error lines below: each must
// still be an error), and what it reports reaches the root unchanged.

describe('the fact protocol', () => {
  it('delivers a child’s fact to the actor with system id portal', () => {
    const child = setup({
      types: {} as { events: { type: 'go' } },
      actions: { report: reportFact<WalletFact>() },
    }).createMachine({
      on: { go: { actions: { type: 'report', params: { type: 'wallet.ready', address: null } } } },
    });
    // The harness's root has the portal's system id and records every fact it hears.
    const h = machineHarness(child);
    h.send({ type: 'go' });
    const heard: PortalEvent[] = [{ type: 'wallet.ready', address: null }];
    expect(h.facts).toEqual(heard);
  });

  it('sends nothing when there is no root to hear it', () => {
    const child = setup({
      types: {} as { events: { type: 'go' } | WalletFact },
      actions: { report: reportFact<WalletFact>() },
    }).createMachine({
      context: { heard: 0 },
      on: {
        go: { actions: { type: 'report', params: { type: 'wallet.disconnected' } } },
        // Were the fact sent to the child itself, it would count here.
        'wallet.disconnected': { actions: assign({ heard: ({ context }) => context.heard + 1 }) },
      },
    });
    const actor = createActor(child).start();
    actor.send({ type: 'go' });
    expect(actor.getSnapshot().context.heard).toBe(0);
  });

  it('refuses a wrong fact at compile time', () => {
    // `npm run typecheck` fails if any of these compiles.
    setup({ actions: { report: reportFact<WalletFact>() } }).createMachine({
      entry: [
        // @ts-expect-error -- an address is a string or null, never a number
        { type: 'report', params: { type: 'wallet.ready', address: 42 } },
        // @ts-expect-error -- wallet.connected needs its chain id
        { type: 'report', params: { type: 'wallet.connected', address: '0xabc' } },
        // @ts-expect-error -- the wallet machine does not report sign-ins
        { type: 'report', params: { type: 'auth.signedIn', user: null } },
        // @ts-expect-error -- a chain id is a number
        { type: 'report', params: { type: 'wallet.chainChanged', chainId: '1', onExpectedChain: true } },
      ],
    });
    // @ts-expect-error -- no child reports this, so the root has no such event
    const unheard: PortalEvent['type'] = 'wallet.switchNetwork';
    expect(unheard).toBeDefined();
  });
});

import { expect } from 'vitest';
import { sendCopy } from '../../src/copy/index.ts';
import { HISTORY_TRIES, historyOutboxMachine } from '../../src/machines/send/history-outbox.machine.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { admin } from '../support/e2e/ui.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { holdNext, type HeldCall } from '../support/ui/held-calls.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { announces, connectWallet, fillSendForm, sendForm, unlinkWallets } from '../support/ui/transfers.ts';
import {
  logOutThroughUi,
  openWorld,
  pathUser,
  seesNo,
  seesToast,
  type PortalWorld,
} from '../support/ui/world.ts';

// A signed-in user's history rows through the portal: each transfer they send with the form is
// queued once it is confirmed, and record-transaction saves it while the form is free again. The
// request is held so 'Saving to history...' can be seen; a gateway that does not answer fails it,
// the retries wait on the page's clock, and signing out drops what still waits.

const sender = e2eAccount('uiHistorySender');
const sink = e2eAccount('uiHistorySink');

type World = PortalWorld & { held: HeldCall | null; userId: string };

type Queue = { queue: string[]; failures: number };
const contextOf = (state: Snapshot) => state.context as Queue;

const saving = (world: World) => world.page.getByText(sendCopy.savingToHistory, { exact: true });

/** Holds the page's next call of record-transaction until a step lets it go or fails it. */
async function holdRecord(world: World) {
  world.held = await holdNext(
    world.page,
    /\/functions\/v1\/record-transaction/,
    'the record-transaction call',
    (request) => request.method() === 'POST',
  );
}

function take(world: World): HeldCall {
  if (!world.held) throw new Error('no record-transaction call is held');
  const { held } = world;
  world.held = null;
  return held;
}

/**
 * The user's row of the send `txHash`. The server also writes it from the chain (it watches the
 * proven wallet), so the row may be there before the portal's call: the portal's save meets it.
 */
async function sendRowsOf(userId: string, txHash: string): Promise<number> {
  const { count, error } = await admin()
    .from('transactions')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', userId)
    .eq('type', 'token_sent')
    .ilike('tx_hash', txHash);
  if (error) throw new Error(`could not read the history: ${error.message}`);
  return count ?? 0;
}

describeUiModel({
  name: 'history-outbox',
  // The page runs it inside send; the graph's stand-in parent hears what it tells and does nothing.
  machine: historyOutboxMachine,
  events: {
    // The hash is the transfer's; one payload, as only how many wait tells the states apart.
    'historyOutbox.add': [{ type: 'historyOutbox.add', hash: `0x${'a1'.repeat(32)}` }],
    'xstate.done.actor.recordTransaction': [
      { type: 'xstate.done.actor.recordTransaction', output: { recorded: true } },
    ],
    // No answer: a retry may help. The last try's failure takes the other branch.
    'xstate.error.actor.recordTransaction': [
      {
        type: 'xstate.error.actor.recordTransaction',
        error: new BackendError('Failed to send a request to the Edge Function'),
      },
    ],
  },
  serializeState: (state) => {
    const { queue, failures } = contextOf(state);
    return JSON.stringify([state.value, Math.min(queue.length, 2), failures]);
  },

  async open(): Promise<World> {
    await unlinkWallets(sender);
    const user = await pathUser();
    const world = await openWorld({ clock: true, wallet: { account: sender.address }, signedInAs: user });
    // Only a proven wallet's transfers are recorded: connected while signed in, it is linked.
    await connectWallet(world, sender.address, true);
    return Object.assign(world, { held: null, userId: user.id });
  },

  views: {
    idle: async (world) => {
      await seesNo(world.page, sendCopy.savingToHistory);
      await expect.poll(() => sendForm(world.page).submit.isEnabled()).toBe(true);
    },
    saving: async (world) => {
      await world.held?.arrival();
      await saving(world).waitFor();
      // The form is free while the row waits.
      await expect.poll(() => sendForm(world.page).submit.isEnabled()).toBe(true);
    },
    waiting: async (world) => {
      await saving(world).waitFor();
      await expect.poll(() => sendForm(world.page).submit.isEnabled()).toBe(true);
    },
  },

  arrange: {
    saving: async (world) => holdRecord(world),
  },

  causes: {
    // The user sends DDEX with the form; the confirmed transfer is queued for its row.
    'historyOutbox.add': async (world) => {
      await fillSendForm(world.page, {
        recipient: sink.address,
        amount: '0.5',
        privateKey: sender.privateKey,
      });
      await sendForm(world.page).submit.click();
      await seesToast(world.page, sendCopy.transferSubmitted);
    },
    'xstate.done.actor.recordTransaction': async (world, _event, from) => {
      const held = take(world);
      const { txHash } = held.body() as { txHash: string };
      // The next transfer's row is saved at once: hold it too.
      if (contextOf(from).queue.length > 1) await holdRecord(world);
      await held.release();
      await expect.poll(() => sendRowsOf(world.userId, txHash)).toBe(1);
    },
    // The gateway does not answer, as when it is stopped.
    'xstate.error.actor.recordTransaction': async (world, _event, from) => {
      await take(world).fail();
      if (contextOf(from).failures + 1 >= HISTORY_TRIES) {
        await seesToast(world.page, sendCopy.historyNotSaved);
      }
    },
    // Signing out drops the rows still waiting: the call needs the session that sent them.
    'historyOutbox.abandon': async (world, _event, from) => {
      const words = sendCopy.historyAbandonedDescription(contextOf(from).queue.length);
      // The toast is announced, but 'Logged Out' replaces it at once (reported, not fixed here).
      await announces(world.page, words, () => logOutThroughUi(world));
      // The call the outbox stopped waiting for goes nowhere.
      await world.held?.fail();
      world.held = null;
    },
  },
  can: (event, state) => {
    const { queue } = contextOf(state);
    // Signing out with nothing waiting drops nothing.
    if (event.type === 'historyOutbox.abandon') return queue.length > 0;
    return true;
  },
});

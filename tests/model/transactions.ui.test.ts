import { expect } from 'vitest';
import { appCopy, authCopy, transactionCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import { button } from '../support/e2e/portal-page.ts';
import { admin, openUserMenu } from '../support/e2e/ui.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { authUser } from '../support/fixtures.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { holdNext, type HeldCall } from '../support/ui/held-calls.ts';
import { openWorld, pathUser, seesToast, type PortalWorld } from '../support/ui/world.ts';

// The history dialog through the portal: a signed-in user opens it from the user menu, the list
// loads from the stack (held so 'Loading transactions...' can be seen), and a stack that does not
// answer shows the error with Try Again. The row is written with the service role, as the backend
// records transfers; nothing here touches the chain.

/** The one row each path's user has: a transfer the backend recorded. */
const RECORDED = {
  created_at: '2025-01-01T00:00:00.000Z',
  type: 'token_sent',
  status: 'confirmed',
  amount: '-0.5',
  token_symbol: 'DDEX',
  tx_hash: `0x${'7e'.repeat(32)}`,
};
/** The same row as the service reads it back (its id and user are the stack's). */
const ROW: TransactionRow = {
  ...RECORDED,
  id: 'ui-history-row',
  user_id: 'ui-history-user',
  asset_amount: null,
  asset_symbol: null,
  transaction_hash: null,
};

type World = PortalWorld & { held: HeldCall | null };

const rowsOf = (state: { context: { rows: TransactionRow[] } }) => state.context.rows;
const dialog = (world: World) => world.page.getByRole('dialog', { name: dialogCopy.transactions.title });
const tryAgain = (world: World) =>
  dialog(world).getByRole('button', { name: dialogCopy.transactions.retry, exact: true });

function heldOf(world: World): HeldCall {
  if (!world.held) throw new Error('no request to the history is held');
  const { held } = world;
  world.held = null;
  return held;
}

/** Each row as a line of the list shows it: its type in words and its hash preview. */
async function seesRows(world: World, rows: TransactionRow[]) {
  for (const row of rows) {
    await dialog(world)
      .getByRole('heading', { name: transactionCopy.typeLabel(row.type), exact: true })
      .waitFor();
    await dialog(world).getByText(transactionCopy.hashPreview(row.tx_hash)).waitFor();
  }
}

describeUiModel({
  name: 'transactions',
  machine: transactionsMachine,
  input: { user: authUser('ui-history') },
  events: {
    'xstate.done.actor.listTransactions': [{ type: 'xstate.done.actor.listTransactions', output: [ROW] }],
    'xstate.error.actor.listTransactions': [
      {
        type: 'xstate.error.actor.listTransactions',
        error: new BackendError('Failed to fetch', null, null),
      },
    ],
  },
  // The dialog shows the state and whether an earlier load left rows on show.
  serializeState: (state) => JSON.stringify([state.value, rowsOf(state).length > 0]),

  async open() {
    const user = await pathUser();
    const { error } = await admin()
      .from('transactions')
      .insert({ ...RECORDED, user_id: user.id });
    if (error) throw new Error(`could not record the history row: ${error.message}`);
    const world: World = Object.assign(await openWorld({ signedInAs: user }), { held: null });
    return world;
  },

  views: {
    idle: async (world) => {
      await button(world.page, authCopy.logout).waitFor();
      await expect.poll(() => dialog(world).count()).toBe(0);
    },
    loading: async (world, state) => {
      if (rowsOf(state).length === 0) {
        await dialog(world).getByText(dialogCopy.transactions.loading, { exact: true }).waitFor();
      } else {
        await expect.poll(() => dialog(world).getByRole('list').getAttribute('aria-busy')).toBe('true');
      }
    },
    ready: async (world, state) => {
      const rows = rowsOf(state);
      if (rows.length === 0) {
        await dialog(world).getByText(dialogCopy.transactions.empty, { exact: true }).waitFor();
      } else {
        await seesRows(world, rows);
        await expect.poll(() => dialog(world).getByRole('list').getAttribute('aria-busy')).toBe('false');
      }
      await expect.poll(() => tryAgain(world).count()).toBe(0);
    },
    error: async (world, state) => {
      await seesToast(world.page, transactionCopy.fetchError);
      await dialog(world).getByRole('alert').getByText(dialogCopy.transactions.error).waitFor();
      await tryAgain(world).waitFor();
      // The rows of an earlier load stay on show.
      await seesRows(world, rowsOf(state));
    },
  },

  arrange: {
    // The list waits for the stack until the next step lets the request go or fails it.
    loading: async (world) => {
      world.held = await holdNext(
        world.page,
        /\/rest\/v1\/transactions\?/,
        'the history request',
        (request) => request.method() === 'GET',
      );
    },
  },

  causes: {
    'transactions.open': async (world) => {
      if ((await dialog(world).count()) > 0) {
        await world.page.keyboard.press('Escape');
        await dialog(world).waitFor({ state: 'detached' });
      }
      await openUserMenu(world.page);
      await button(world.page, appCopy.menu.transactions).click();
    },
    'transactions.refresh': async (world) => tryAgain(world).click(),
    'xstate.done.actor.listTransactions': async (world) => heldOf(world).release(),
    // The stack does not answer: the request fails as against a stopped gateway.
    'xstate.error.actor.listTransactions': async (world) => heldOf(world).fail(),
  },
  can: (event, state) => {
    // Try Again is the page's refresh of the history, shown only after a failed load; a transfer's
    // refresh takes the same transition.
    if (event.type === 'transactions.refresh') return state.matches('error');
    // Opened again while a load is held, the first request would stay held behind the second.
    if (event.type === 'transactions.open') return !state.matches('loading');
    return true;
  },
});

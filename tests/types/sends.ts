import type { Actor } from 'xstate';
import { tell } from '../../src/machines/portal/portal.setup.ts';
import type { portalMachine } from '../../src/machines/portal/portal.machine.ts';

// Messages sent down the portal's actor system are checked by the compiler. Each send under an
// expect-error directive must not compile (a misspelt type, a wrong payload, an actor that does
// not exist); `npm run typecheck` fails if one becomes legal, for its directive is then unused.
// Nothing here runs; the good sends beside them show that the same calls do compile.

export function sendsFromViews(portal: Actor<typeof portalMachine>) {
  const { children, context } = portal.getSnapshot();

  children.transactions?.send({ type: 'transactions.refresh' });
  // @ts-expect-error a misspelt type
  children.transactions?.send({ type: 'transactions.refersh' });

  children.balances?.send({ type: 'balances.refresh' });
  // @ts-expect-error a misspelt type
  children.balances?.send({ type: 'balances.refrsh' });

  children.balances?.send({ type: 'wallet.changed', address: null, chainId: null });
  // @ts-expect-error a misspelt type and a misspelt field
  children.balances?.send({ type: 'wallet.chnaged', adress: 42 });
  // @ts-expect-error a payload of the wrong type
  children.balances?.send({ type: 'wallet.changed', address: 42, chainId: null });

  children.auth?.send({ type: 'auth.open', mode: 'login' });
  // @ts-expect-error a mode that does not exist
  children.auth?.send({ type: 'auth.open', mode: 'register' });

  context.trading?.send({ type: 'session.changed', user: null });
  // @ts-expect-error the old payload of session.changed
  context.trading?.send({ type: 'session.changed', signedIn: true });
  // @ts-expect-error an event the trading machine does not take
  context.trading?.send({ type: 'market.blok', blockNumber: 1n });

  context.bots?.send({ type: 'bots.edit', id: 'b-1' });
  // @ts-expect-error an id of the wrong type
  context.bots?.send({ type: 'bots.edit', id: 7 });
  // @ts-expect-error a misspelt type
  context.bots?.send({ type: 'bots.creat' });
}

export function sendsFromTheRoot() {
  tell('transactions', { type: 'transactions.refresh' });
  // @ts-expect-error a misspelt type
  tell('transactions', { type: 'transactions.refersh' });
  // @ts-expect-error a misspelt field
  tell('balances', { type: 'wallet.changed', adress: null, chainId: null });
  // @ts-expect-error an event the receiver does not take
  tell('wallet', { type: 'balances.refresh' });
  // @ts-expect-error a child that does not exist
  tell('toasts', { type: 'toast.show', toast: { title: 'x' } });
  tell('profile', { type: 'wallet.unlinked' });
  // @ts-expect-error a user the event does not allow (the profile needs one)
  tell('profile', { type: 'session.userUpdated', user: null });
}

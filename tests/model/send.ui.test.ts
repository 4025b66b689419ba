import type { AnyEventObject } from 'xstate';
import { keccak256, type Hex } from 'viem';
import { expect } from 'vitest';
import { profileCopy, sendCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { sendMachine } from '../../src/machines/send/send.machine.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { button } from '../support/e2e/portal-page.ts';
import { authUser } from '../support/fixtures.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { LOCAL } from '../support/model/ui-chains.ts';
import { holdNext, holdNextRpc, stopNode, stopNodeAfter, type HeldCall } from '../support/ui/held-calls.ts';
import { describeUiModel, type UiModelSpec, type UiPath } from '../support/ui/index.ts';
import {
  announces,
  balancesSettled,
  connectWallet,
  fillSendForm,
  sendForm,
  takeNonce,
  unlinkWallets,
} from '../support/ui/transfers.ts';
import {
  logInThroughUi,
  logOutThroughUi,
  openWorld,
  seesNo,
  seesToast,
  walletOf,
  type PortalWorld,
} from '../support/ui/world.ts';

// The send form through the portal, on the local chain: each step of a private-key send is a call
// to the node held on its way (eth_chainId while preparing, eth_estimateGas while signing,
// eth_sendRawTransaction while broadcasting, the lookup while checking), then let go, failed as a
// stopped node fails it, or delivered with its answer lost. 'Send with wallet' waits on the mock
// wallet's prompt, which approves, rejects (4001) or fails (-32603). A transaction the page must
// not repeat is taken out of its hands on the chain itself: another transaction of the sender
// takes its nonce, or too little gas makes it revert.

const sender = e2eAccount('uiSender');
const recipient = e2eAccount('uiRecipient');

const AMOUNT = '1';
/** Below the form's minimum: refused before anything is signed. */
const TOO_SMALL = '0.0000000000000000001';
/** More DDEX than any account of the chain was given: refused against the balance on show. */
const ABOVE_BALANCE = '2000000';
/** Stands for the sender's key in the model (its guards ask only whether one was typed). */
const KEY = 'the sender key';
/** Longer than the token service waits for a receipt. */
const RECEIPT_WAIT_MS = 5 * 60_000;
/** Enough gas to be mined, too little for the transfer: it reverts. */
const TOO_LITTLE_GAS = 30_000;

const HASH = `0x${'cd'.repeat(32)}` as const;
// The outputs only move the model; the page shows the chain's own values. Amounts as text, as the
// graph prints every event with JSON.stringify.
const prepared = { from: sender.address, to: recipient.address, raw: '1', amount: AMOUNT, decimals: 18 };
const result = { hash: HASH, from: sender.address, to: recipient.address, raw: '1', blockNumber: '1' };
const lostAnswer = new TokenServiceError(
  { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
  { hash: HASH },
);
const nodeDown = new TokenServiceError({ code: 'rpc-unavailable', status: null });

type Unresolved = { hash: string | null; serialized: string | null; recipient: string; amount: string };
type SendState = {
  tokenConfigured: boolean;
  walletAddress: string | null;
  userId: string | null;
  recipient: string;
  amount: string;
  lastHash: string | null;
  unresolved: Unresolved | null;
};
type Submit = { type: string; recipient: string; amount: string; privateKey?: string };

const contextOf = (state: Snapshot) => state.context as SendState;

/** What is known of a transfer that may have gone out: its signed bytes, only a hash, or nothing. */
function unresolvedKind(state: Snapshot): 'none' | 'unchecked' | 'wallet' | 'signed' {
  const { unresolved } = contextOf(state);
  if (unresolved === null) return 'none';
  if (unresolved.hash === null) return 'unchecked';
  return unresolved.serialized === null ? 'wallet' : 'signed';
}

/**
 * The words a refused submit shows, in the order of docs/product.md#send-form-order; null when the
 * send goes on (to the chain, or to the check of a transfer that may have gone out).
 */
function refusalOf(event: AnyEventObject, from: Snapshot): string | null {
  const submit = event as Submit;
  const { unresolved, tokenConfigured } = contextOf(from);
  if (submit.recipient.trim() === '' || submit.amount.trim() === '') {
    return sendCopy.missingInformation.description;
  }
  if (unresolved && unresolved.recipient === submit.recipient && unresolved.amount === submit.amount) {
    return unresolved.hash === null ? sendCopy.walletMaybeSentAgain.description : null;
  }
  if (submit.privateKey === '') return sendCopy.privateKeyRequired.description;
  if (!tokenConfigured) return sendCopy.configurationError.description;
  if (submit.amount === TOO_SMALL || submit.amount === ABOVE_BALANCE) return sendCopy.invalidTransfer;
  return null;
}

type World = PortalWorld & {
  path: UiPath;
  /**
   * Requests held for the steps to come, oldest first: a step's cause settles the oldest, while
   * `arrange` has already held the one the state it enters waits on.
   */
  held: HeldCall[];
  /** The hash of the transaction whose broadcast lost its answer. */
  sentHash: string;
};

function take(world: World): HeldCall {
  const held = world.held.shift();
  if (!held) throw new Error('no request of the send is held');
  return held;
}

/** A send the chart stopped may still get its answer; nobody hears it. */
async function letGo(world: World) {
  for (const held of world.held.splice(0)) await held.release();
}

/**
 * The node is stopped: the held call and every try the token service makes again fail. It starts
 * again once the form is free, so no try of this send can reach it.
 */
async function failWithNodeDown(world: World, words: string) {
  const held = take(world);
  await held.arrival();
  const node = await stopNode(world.page);
  await held.fail();
  await sendForm(world.page).submit.waitFor();
  await seesToast(world.page, words);
  await node.start();
}

const releaseWallet = (world: World) => world.page.evaluate(() => window.__mockWalletRelease?.());

const laterConfirmFails = (world: World, test: (error: TokenServiceError) => boolean) =>
  world.path.events.some(
    (event) =>
      event.type === 'xstate.error.actor.confirmTransfer' &&
      test((event as unknown as { error: TokenServiceError }).error),
  );

/** The form as the user left it, free for the next send. */
async function seesForm(world: World, state: Snapshot) {
  const { walletAddress, recipient: to, amount, userId } = contextOf(state);
  const form = sendForm(world.page);
  if (walletAddress === null) {
    // Without a wallet there is no form, only the way to connect one.
    await button(world.page, walletCopy.connectWallet).waitFor();
    await expect.poll(() => form.submit.count()).toBe(0);
    return;
  }
  await expect.poll(() => form.submit.isEnabled()).toBe(true);
  await expect.poll(() => form.withWallet.textContent()).toBe(sendCopy.sendWithWallet);
  await expect.poll(() => form.recipient.inputValue()).toBe(to);
  await expect.poll(() => form.amount.inputValue()).toBe(amount);
  expect(await form.privateKey.inputValue()).toBe('');
  const note = world.page.getByText(sendCopy.visitorNote, { exact: true });
  await expect.poll(() => note.count()).toBe(userId === null ? 1 : 0);
}

/** 'Broadcasting Transaction...' while the held call waits; the key has already left the page. */
async function seesBusy(world: World) {
  await world.held.at(-1)?.arrival();
  const form = sendForm(world.page);
  await expect.poll(() => form.busy.isDisabled()).toBe(true);
  expect(await form.busy.getAttribute('aria-busy')).toBe('true');
  expect(await form.withWallet.isDisabled()).toBe(true);
  expect(await form.privateKey.inputValue()).toBe('');
}

const spec: Omit<UiModelSpec<typeof sendMachine, World>, 'input' | 'open' | 'events'> = {
  name: 'send',
  // What the chart reports to the root and hands its outbox is the page's business here.
  machine: sendMachine.provide({
    actions: { report: () => {}, queueHistory: () => {}, abandonHistory: () => {} },
  }),
  serializeState: (state) => {
    const { walletAddress, userId, recipient: to, amount, lastHash } = contextOf(state);
    return JSON.stringify([
      state.value,
      walletAddress,
      userId !== null,
      unresolvedKind(state),
      to,
      amount,
      lastHash !== null,
    ]);
  },

  views: {
    editing: seesForm,
    'sending.unsigned': seesBusy,
    'sending.broadcasting': seesBusy,
    'sending.checking': seesBusy,
    'sending.withWallet': async (world) => {
      // The wallet's button names the step it waits on.
      const waiting = button(world.page, sendCopy.walletWaiting);
      await expect.poll(() => waiting.getAttribute('aria-busy')).toBe('true');
      expect(await waiting.isDisabled()).toBe(true);
      expect(await sendForm(world.page).submit.isDisabled()).toBe(true);
      await seesToast(world.page, sendCopy.walletPrompt.title);
    },
  },

  arrange: {
    'sending.unsigned.preparing': async (world) => {
      world.held.push(await holdNextRpc(world.page, 'eth_chainId'));
    },
    'sending.unsigned.signing': async (world) => {
      world.held.push(await holdNextRpc(world.page, 'eth_estimateGas'));
    },
    'sending.broadcasting': async (world) => {
      world.held.push(await holdNextRpc(world.page, 'eth_sendRawTransaction'));
    },
    // Signed bytes are looked up first; a wallet's transfer has only its receipt to wait for.
    'sending.checking': async (world, state) => {
      const method =
        unresolvedKind(state) === 'signed' ? 'eth_getTransactionByHash' : 'eth_getTransactionReceipt';
      world.held.push(await holdNextRpc(world.page, method));
    },
    // The wallet's prompt stays open until the next step answers it.
    'sending.withWallet': async (world) => void (await walletOf(world).holdNext()),
    // A signed-in user's transfer waits for its history row until the next step lets it be saved.
    editing: async (world, _state, next) => {
      if (next?.type !== 'historyOutbox.settled') return;
      world.held.push(
        await holdNext(
          world.page,
          /\/functions\/v1\/record-transaction/,
          'the record-transaction call',
          (request) => request.method() === 'POST',
        ),
      );
    },
  },

  causes: {
    'wallet.changed': async (world, event, from) => {
      const { address } = event as unknown as { address: string };
      if (contextOf(from).walletAddress === null) {
        await connectWallet(world, address, false);
      } else {
        // The user picks another account in the wallet.
        await walletOf(world).emitAccountsChanged([address]);
        await world.page.getByText(shortAddress(address), { exact: true }).waitFor();
      }
      if (from.matches({ sending: 'unsigned' })) {
        await seesToast(world.page, sendCopy.cancelledWalletChanged);
        await letGo(world);
      }
      await balancesSettled(world.page);
    },
    'session.changed': async (world, event, from) => {
      if ((event as unknown as { user: unknown }).user) {
        await logInThroughUi(world);
        // The connected wallet is proven and linked, so the user's transfers can be recorded.
        await seesToast(world.page, profileCopy.createdAndLinked);
      } else if (from.matches({ sending: 'unsigned' })) {
        // Announced, then replaced at once by 'Logged Out' (reported, not fixed here).
        await announces(world.page, sendCopy.cancelledSessionChanged, () => logOutThroughUi(world));
        await letGo(world);
      } else {
        await logOutThroughUi(world);
      }
    },
    'send.submit': async (world, event, from) => {
      const submit = event as unknown as Submit;
      await balancesSettled(world.page);
      await fillSendForm(world.page, {
        recipient: submit.recipient,
        amount: submit.amount,
        privateKey: submit.privateKey === '' ? '' : sender.privateKey,
      });
      await sendForm(world.page).submit.click();
      const refusal = refusalOf(event, from);
      if (refusal) await seesToast(world.page, refusal);
    },
    'send.submitWithWallet': async (world, event, from) => {
      const submit = event as unknown as Submit;
      await balancesSettled(world.page);
      await fillSendForm(world.page, { recipient: submit.recipient, amount: submit.amount });
      await sendForm(world.page).withWallet.click();
      const refusal = refusalOf(event, from);
      if (refusal) await seesToast(world.page, refusal);
    },
    'xstate.done.actor.prepareTransfer': async (world) => take(world).release(),
    'xstate.error.actor.prepareTransfer': (world) => failWithNodeDown(world, sendCopy.transferFailed),
    'xstate.done.actor.signTransfer': async (world) => take(world).release(),
    'xstate.error.actor.signTransfer': (world) => failWithNodeDown(world, sendCopy.transferFailed),
    'xstate.done.actor.broadcastTransfer': async (world) => {
      await take(world).release();
      await seesToast(world.page, sendCopy.transferSubmitted);
    },
    'xstate.error.actor.broadcastTransfer': async (world, event) => {
      const held = take(world);
      await held.arrival();
      if ((event as unknown as { error: TokenServiceError }).error.hash === undefined) {
        // Another transaction of the sender took the nonce first: the node refuses these bytes.
        await takeNonce(sender);
        await held.release();
        await seesToast(world.page, sendCopy.transferFailed);
        return;
      }
      const { params } = held.body() as { params: [Hex] };
      world.sentHash = keccak256(params[0]);
      // The answer is lost: after the node took the bytes, or (when the path will find them
      // replaced) before they reached it.
      if (laterConfirmFails(world, (error) => error.replaced)) await held.fail();
      else await held.loseAnswer();
      await seesToast(world.page, sendCopy.mayHaveBeenSent);
    },
    'xstate.done.actor.confirmTransfer': async (world) => {
      await take(world).release();
      await seesToast(world.page, sendCopy.transferSubmitted);
    },
    'xstate.error.actor.confirmTransfer': async (world, event) => {
      const { error } = event as unknown as { error: TokenServiceError };
      if (error.replaced) {
        // The sender's nonce goes to another transaction before the page sends the bytes again.
        await takeNonce(sender);
        await take(world).release();
        await seesToast(world.page, sendCopy.replacedOnChain(world.sentHash));
      } else if (error.reason === 'reverted') {
        // The wallet's transfer was mined with too little gas.
        await take(world).release();
        await seesToast(world.page, sendCopy.transferFailed);
      } else {
        await failWithNodeDown(world, sendCopy.mayHaveBeenSent);
      }
    },
    'xstate.done.actor.walletSend': async (world, event) => {
      const { outcome } = (event as unknown as { output: { outcome: string } }).output;
      const wallet = walletOf(world);
      if (outcome === 'confirmed') {
        await releaseWallet(world);
        await seesToast(world.page, sendCopy.transferSubmitted);
      } else if (outcome === 'stopped') {
        await wallet.rejectNextOf('eth_sendTransaction', 4001);
        await releaseWallet(world);
        await seesToast(world.page, sendCopy.walletRejected.title);
      } else if (outcome === 'maybeSent') {
        // The wallet fails after it may have broadcast, giving no hash.
        await wallet.rejectNextOf('eth_sendTransaction', -32603, 'Internal JSON-RPC error.');
        await releaseWallet(world);
        await seesToast(world.page, sendCopy.mayHaveBeenSent);
      } else {
        // The wallet broadcasts, then the node stops answering: no receipt comes in time.
        if (laterConfirmFails(world, (error) => error.reason === 'reverted')) {
          await wallet.sendWithGasNext(TOO_LITTLE_GAS);
        }
        const node = await stopNodeAfter(world.page, 'eth_sendTransaction');
        await releaseWallet(world);
        await button(world.page, sendCopy.walletConfirming).waitFor();
        await world.page.clock.fastForward(RECEIPT_WAIT_MS);
        await seesToast(world.page, sendCopy.transferNotConfirmed);
        await node.start();
      }
    },
    // The row is saved: the transfer leaves the outbox.
    'historyOutbox.settled': async (world) => {
      await take(world).release();
      await seesNo(world.page, sendCopy.savingToHistory);
    },
  },

  can: (event, state) => {
    const context = contextOf(state);
    const editing = state.matches('editing');
    switch (event.type) {
      case 'wallet.changed': {
        const { address } = event as unknown as { address: string };
        // Connecting gives the wallet's first account; a switch away only mid-send (before
        // anything left the page), and back to the sender afterwards.
        if (context.walletAddress === sender.address) {
          return state.matches({ sending: 'unsigned' }) && address === recipient.address;
        }
        return editing && address === sender.address;
      }
      case 'session.changed':
        // Logged in before any transfer, with the sender's wallet (so each row waiting belongs to
        // the user); out again from the form or mid-send.
        if ((event as unknown as { user: unknown }).user) {
          return (
            editing &&
            context.userId === null &&
            context.walletAddress === sender.address &&
            context.lastHash === null &&
            context.unresolved === null
          );
        }
        return context.userId !== null && (editing || state.matches({ sending: 'unsigned' }));
      case 'send.submit':
      case 'send.submitWithWallet':
        // The form is there with the sender's wallet; its key is the one typed.
        return editing && context.walletAddress === sender.address;
      case 'historyOutbox.settled':
        return editing && context.userId !== null && context.lastHash !== null;
      case 'xstate.error.actor.confirmTransfer': {
        // Signed bytes can be found replaced, or unanswered; a wallet's transfer can be reverted.
        const { error } = event as unknown as { error: TokenServiceError };
        return unresolvedKind(state) === (error.reason === 'reverted' ? 'wallet' : 'signed');
      }
      default:
        return true;
    }
  },
  reasons: {
    'send.editing --send.submit#0--> (stays)':
      'the form is shown only while a wallet is connected (docs/product.md#send-form)',
    'send.editing --send.submitWithWallet#0--> (stays)':
      'the form is shown only while a wallet is connected (docs/product.md#send-form)',
  },
};

async function openSend(path: UiPath, variant: 'full' | 'noToken'): Promise<World> {
  // A wallet has one owner: free the sender's from an earlier path's user before this one logs in.
  await unlinkWallets(sender, recipient);
  const world = await openWorld({
    variant,
    clock: true,
    wallet: { account: sender.address, otherAccounts: [recipient.address], chainId: LOCAL },
  });
  return Object.assign(world, { path, held: [], sentHash: '' });
}

const submit = (fields: Partial<Submit> = {}) => ({
  type: 'send.submit',
  recipient: recipient.address,
  amount: AMOUNT,
  privateKey: KEY,
  ...fields,
});
const withWallet = (fields: Partial<Submit> = {}) => ({
  type: 'send.submitWithWallet',
  recipient: recipient.address,
  amount: AMOUNT,
  balance: '1000000',
  ...fields,
});
const connected = { type: 'wallet.changed', address: sender.address, chainId: LOCAL };

// With the DDEX contract (the `full` build): the whole send, its failures and the cancellations.
describeUiModel({
  ...spec,
  input: { tokenConfigured: true },
  open: (path) => openSend(path, 'full'),
  events: {
    'send.submit': [
      submit(),
      submit({ recipient: '' }),
      submit({ privateKey: '' }),
      submit({ amount: TOO_SMALL }),
    ],
    'send.submitWithWallet': [
      withWallet(),
      withWallet({ amount: '' }),
      withWallet({ amount: ABOVE_BALANCE }),
    ],
    'wallet.changed': [connected, { type: 'wallet.changed', address: recipient.address, chainId: LOCAL }],
    'session.changed': [
      { type: 'session.changed', user: authUser('ui-sender') },
      { type: 'session.changed', user: null },
    ],
    'xstate.done.actor.prepareTransfer': [{ type: 'xstate.done.actor.prepareTransfer', output: prepared }],
    'xstate.error.actor.prepareTransfer': [{ type: 'xstate.error.actor.prepareTransfer', error: nodeDown }],
    'xstate.done.actor.signTransfer': [
      { type: 'xstate.done.actor.signTransfer', output: { serialized: '0x02f8b1827a69', hash: HASH } },
    ],
    'xstate.error.actor.signTransfer': [{ type: 'xstate.error.actor.signTransfer', error: nodeDown }],
    'xstate.done.actor.broadcastTransfer': [{ type: 'xstate.done.actor.broadcastTransfer', output: result }],
    'xstate.error.actor.broadcastTransfer': [
      // The node refuses the bytes (their nonce is used): nothing went out.
      { type: 'xstate.error.actor.broadcastTransfer', error: new TokenServiceError({ code: 'unknown' }) },
      { type: 'xstate.error.actor.broadcastTransfer', error: lostAnswer },
    ],
    'xstate.done.actor.confirmTransfer': [{ type: 'xstate.done.actor.confirmTransfer', output: result }],
    'xstate.error.actor.confirmTransfer': [
      { type: 'xstate.error.actor.confirmTransfer', error: lostAnswer },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'unknown' }, { hash: HASH, replaced: true }),
      },
    ],
    'xstate.done.actor.walletSend': [
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'confirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'unconfirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'maybeSent' } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'stopped' } },
    ],
    'historyOutbox.settled': [{ type: 'historyOutbox.settled', hashes: [HASH] }],
  },
});

// Without one (the `noToken` build): 'Configuration Error' is where every send ends.
describeUiModel({
  ...spec,
  input: { tokenConfigured: false },
  open: (path) => openSend(path, 'noToken'),
  events: {
    'send.submit': [submit()],
    'send.submitWithWallet': [withWallet()],
    'wallet.changed': [connected],
  },
});

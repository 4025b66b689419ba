import { describe, expect, it } from 'vitest';
import { sendCopy } from '../../../src/copy/index.ts';
import type {
  ConfirmTransferRequest,
  TransferResult,
  WalletTransfer,
  WalletTransferCall,
} from '../../../src/domain/token.ts';
import { sendBusyTag, sendMachine, type SendFact } from '../../../src/machines/send/send.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { walletSendTags } from '../../../src/machines/send/wallet-send.machine.ts';
import { settle } from '../../support/deferred-actor.ts';
import { authUser } from '../../support/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';
import { minedAs, prepared, WALLET, withWallet } from '../../support/transfer-fixtures.ts';

// 'Send with wallet' once the wallet has been asked: its prompt is the wallet's, and whatever the
// user answers there is what happens on chain. So a change of account, network or session from
// then on cancels nothing (a private-key send is cancelled before it is broadcast, send.test.ts);
// the wallet's answer is followed to its receipt (docs/reliability-and-security.md#sends).

const OTHER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const HASH = `0x${'cd'.repeat(32)}` as const;
const result = minedAs(HASH, 9n);
const user = authUser('user-1', 'ada@example.test');
const call: WalletTransferCall = { from: WALLET, to: `0x${'5f'.repeat(20)}`, data: '0xa9059cbb' };

function setup() {
  const h = machineHarness(sendMachine, { input: { tokenConfigured: true } });
  const { actor, toasts } = h;
  const reports = h.facts as SendFact[];
  const walletPrepares = h.calls<WalletTransfer>('walletSend.prepareWalletTransfer');
  const walletRequests = h.calls<`0x${string}`, WalletTransferCall>('walletSend.requestWalletTransfer');
  const walletConfirms = h.calls<TransferResult, ConfirmTransferRequest>('walletSend.confirmTransfer');
  const records = h.calls('historyOutbox.recordTransaction');
  actor.send({ type: 'wallet.changed', address: WALLET, chainId: 31337 });
  /** The wallet-send child's snapshot, while there is one. */
  const walletSend = () =>
    (
      h.snapshot().children.walletSend as { getSnapshot(): { hasTag(tag: string): boolean } } | undefined
    )?.getSnapshot();
  const { answer } = h;
  return {
    actor,
    answer,
    toasts,
    reports,
    walletPrepares,
    walletRequests,
    walletConfirms,
    records,
    walletSend,
  };
}

type Harness = ReturnType<typeof setup>;

/** Submitted and checked against the chain: the wallet's prompt is open. */
async function askTheWallet(h: Harness) {
  h.actor.send(withWallet);
  await h.answer('walletSend.prepareWalletTransfer', { prepared, call });
  expect(h.walletRequests.map((request) => request.input)).toEqual([call]);
  expect(h.walletSend()?.hasTag(walletSendTags.waiting)).toBe(true);
}

const cancelled = (toasts: ToastRequest[]) =>
  toasts.filter((toast) => toast.title === sendCopy.transferCancelled);

describe('Send with wallet: not cancelled once the wallet is asked', () => {
  it('the wallet switching account, network or disconnecting meanwhile: the answer is followed to its receipt', async () => {
    const h = setup();
    await askTheWallet(h);

    // accountsChanged, chainChanged and disconnect, as the root passes them on.
    h.actor.send({ type: 'wallet.changed', address: OTHER_WALLET, chainId: 31337 });
    h.actor.send({ type: 'wallet.changed', address: OTHER_WALLET, chainId: 1 });
    h.actor.send({ type: 'wallet.changed', address: null, chainId: null });
    await settle();
    expect(h.actor.getSnapshot().hasTag(sendBusyTag)).toBe(true);

    // The wallet answers: its hash is the transfer, whatever was connected since.
    h.walletRequests[0]?.resolve(HASH);
    await settle();
    expect(h.walletSend()?.hasTag(walletSendTags.pending)).toBe(true);
    expect(h.walletConfirms.map((confirm) => confirm.input)).toEqual([{ hash: HASH, serialized: null }]);

    h.walletConfirms[0]?.resolve(result);
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferSubmitted,
      description: sendCopy.transferSubmittedDescription(HASH),
    });
    expect(cancelled(h.toasts)).toEqual([]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.actor.getSnapshot().context).toMatchObject({ recipient: '', amount: '', lastHash: HASH });
  });

  it('the user signing out meanwhile: the answer is still followed to its receipt, with no row to save', async () => {
    const h = setup();
    h.actor.send({ type: 'session.changed', user });
    await askTheWallet(h);

    h.actor.send({ type: 'session.changed', user: null });
    await settle();
    expect(h.actor.getSnapshot().hasTag(sendBusyTag)).toBe(true);

    h.walletRequests[0]?.resolve(HASH);
    await settle();
    // Changes while the receipt is awaited cancel nothing either.
    h.actor.send({ type: 'wallet.changed', address: OTHER_WALLET, chainId: 31337 });
    expect(h.walletConfirms.map((confirm) => confirm.input)).toEqual([{ hash: HASH, serialized: null }]);
    h.walletConfirms[0]?.resolve(result);
    await settle();

    expect(cancelled(h.toasts)).toEqual([]);
    expect(h.toasts.at(-1)?.title).toBe(sendCopy.transferSubmitted);
    // Signed out by then: reported at once, nothing recorded for anyone.
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.records).toEqual([]);
  });

  it('another user signing in meanwhile: the transfer is not saved to their history', async () => {
    const h = setup();
    h.actor.send({ type: 'session.changed', user });
    await askTheWallet(h);

    // The sender signs out and someone else signs in on this page before the wallet answers.
    h.actor.send({ type: 'session.changed', user: null });
    h.actor.send({ type: 'session.changed', user: { ...user, id: 'user-2', email: 'bo@example.test' } });
    h.walletRequests[0]?.resolve(HASH);
    await settle();
    h.walletConfirms[0]?.resolve(result);
    await settle();

    expect(h.toasts.at(-1)?.title).toBe(sendCopy.transferSubmitted);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.records).toEqual([]);
  });
});

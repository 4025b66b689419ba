import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatEther,
  formatUnits,
  http,
  parseUnits,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Ethereum } from '@tatumio/tatum';
import { getBalance, readContract, waitForTransactionReceipt, writeContract } from 'viem/actions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  appCopy,
  authCopy,
  profileCopy,
  sendCopy,
  shortAddress,
  walletCopy,
  walletProofCopy,
  webhookCopy,
} from '../../src/copy/index.ts';
import { displayName } from '../../src/machines/profile/display-name.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { serviceClient, uniqueEmail, PASSWORD } from '../support/stack/users.ts';
import { startHeadlessPortal, type HeadlessPortal } from '../support/headless-portal.ts';
import { localTatum } from '../support/tatum-sdk.ts';
import { releaseWalletAsServer } from '../support/stack/wallets.ts';

// The whole portal without a browser (tests/support/headless-portal.ts) on
// the local stack. Views only send these events and render these snapshots,
// so this is the portal a person uses, minus pixels. Each test opens a portal
// of its own as a visitor and brings it where it needs it, so the tests hold
// in any order and alone.

const stack = inject('gateway');
const chain = inject('chain');
const wallet = testAccount('portalWallet');
const payer = testAccount('portalPayer');
const recipient = testAccount('balanceReader');
const publicClient = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
const admin = serviceClient(stack);

let tatum: Ethereum;
let headless: HeadlessPortal;
const child = (id: string) => headless.child(id);
const until: HeadlessPortal['until'] = (actor, check, timeoutMs) => headless.until(actor, check, timeoutMs);
const toastTitled = (title: string) => headless.toastTitled(title);

/** A snapshot's context as text, bigints included, to look for secrets in. */
const textOf = (value: unknown) =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/**
 * The wallet as if no test had used it: on nobody's profile (a proof links it to one user only)
 * and watched by no Tatum subscription (whose payments would be recorded for its next owner).
 */
async function freeTheWallet(): Promise<void> {
  await releaseWalletAsServer(admin, wallet.address);
  const watching = await tatum.notification.getAll({ pageSize: 50, address: wallet.address });
  for (const { id } of watching.data ?? []) await tatum.notification.unsubscribe(id);
}

/** Signs a new user up through the dialog, and waits until the portal has them signed in. */
async function signUp(): Promise<void> {
  const email = uniqueEmail('headless');
  child('auth').send({ type: 'auth.open', mode: 'signup' });
  child('auth').send({ type: 'auth.submit', email, password: PASSWORD });
  await toastTitled(authCopy.signupSuccess.title);
  await until(headless.portal, (s) => s.context.user?.email === email);
}

/** Connects the wallet, which the signed-in user's profile then proves (a signature) and holds. */
async function connectAndLink() {
  child('wallet').send({ type: 'wallet.connect' });
  await toastTitled(walletCopy.connected);
  const linked = await toastTitled(profileCopy.createdAndLinked);
  const profile = await until(
    child('profile'),
    (s) =>
      s.context.profile?.wallet_address?.toLowerCase() === wallet.address.toLowerCase() && s.context.profile,
  );
  return { linked, profile };
}

beforeAll(async () => {
  tatum = await localTatum(stack.tatumApiUrl, chain.rpcUrl, stack.tatumApiKey);
});

afterAll(() => tatum?.destroy());

// A visitor's portal, settled (the session read, the wallet looked for), and a wallet nobody holds.
beforeEach(async () => {
  headless = startHeadlessPortal({ stack, chain, wallet });
  await freeTheWallet();
  await until(headless.portal, (s) => s.matches({ boot: 'ready' }));
});

afterEach(() => headless.stop());

describe('the portal, headless, on the local stack', () => {
  it('welcomes a visitor once the session and the wallet have settled', async () => {
    await until(headless.portal, (s) => s.matches({ boot: 'ready' }));
    expect(headless.toasts[0]).toMatchObject({ title: appCopy.welcome.title });
    expect(child('theme').getSnapshot().value).toBe('dark');
  });

  it('signs up, connects the wallet and shows the chain’s balances', async () => {
    await signUp();
    // The password is gone once the request is done.
    expect(textOf(child('auth').getSnapshot().context)).not.toContain(PASSWORD);

    const { linked, profile } = await connectAndLink();
    const balances = await until(child('balances'), (s) => s.matches('loaded') && s.context);
    const native = await getBalance(publicClient, { address: wallet.address, blockTag: 'pending' });
    const ddex = await readContract(publicClient, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [wallet.address],
    });
    expect(balances).toMatchObject({
      native: { status: 'loaded', value: formatEther(native) },
      ddex: { status: 'loaded', value: formatUnits(ddex, 18) },
    });
    // The wallet signed a proof, and the profile now holds it, verified.
    expect(linked.description).toBe(profileCopy.createdAndLinkedDescription(wallet.address));
    expect(profile.wallet_verified_at).toEqual(expect.any(String));
    expect(headless.mockWallet.requests).toContain('personal_sign');
  });

  it('sends DDEX with the private key, records it in history and forgets the key', async () => {
    await signUp();
    await connectAndLink();
    const before = await readContract(publicClient, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [recipient.address],
    });
    child('send').send({
      type: 'send.submit',
      recipient: recipient.address,
      amount: '2.5',
      privateKey: wallet.privateKey,
    });
    const submitted = await toastTitled(sendCopy.transferSubmitted);
    const after = await readContract(publicClient, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [recipient.address],
    });
    expect(after - before).toBe(parseUnits('2.5', 18));
    const hash = child('send').getSnapshot().context.lastHash as string;
    expect(submitted.description).toBe(sendCopy.transferSubmittedDescription(hash));
    expect(textOf(child('send').getSnapshot().context)).not.toContain(wallet.privateKey.slice(2));

    // The server watches the proven wallet too, and may record the send's fee under the same hash.
    const history = await until(child('transactions'), (s) =>
      (s.context.rows as { tx_hash: string; type: string; amount: string }[]).find(
        (r) => r.tx_hash === hash && r.type !== 'fee',
      ),
    );
    expect(history).toMatchObject({ type: 'token_sent', amount: '-2.5' });
  });

  it('watches the wallet through Tatum and shows a payment to it as a live notification', async () => {
    await signUp();
    await connectAndLink();
    child('webhooks').send({ type: 'webhooks.create' });
    const created = await toastTitled(webhookCopy.created);
    expect(created.description).toContain(wallet.address);

    const paying = createWalletClient({
      account: privateKeyToAccount(payer.privateKey),
      transport: http(chain.rpcUrl, { retryCount: 0 }),
    });
    const hash = await writeContract(paying, {
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [wallet.address, parseUnits('7', 18)],
      chain: null,
    });
    await waitForTransactionReceipt(publicClient, { hash });
    const notice = await toastTitled('DDEX Received');
    expect(notice.description).toContain('You received 7 DDEX');
    const listed = await until(child('notifications'), (s) =>
      (s.context.notifications as { message: string }[]).find((n) => n.message.includes(hash.slice(0, 10))),
    );
    expect(listed).toBeTruthy();
    expect(child('notifications').getSnapshot().context.unreadCount).toBeGreaterThan(0);
  }, 30_000);

  it('unlinks a disconnected wallet, and links it again only with a signature the user gives', async () => {
    await signUp();
    await connectAndLink();
    child('wallet').send({ type: 'wallet.disconnect' });
    await until(child('profile'), (s) => s.matches('ready') && s.context.profile?.wallet_address === null);
    expect(child('profile').getSnapshot().context.profile?.wallet_verified_at).toBeNull();

    headless.mockWallet.rejectNextOf('personal_sign', 4001);
    child('wallet').send({ type: 'wallet.connect' });
    const refused = await toastTitled(walletProofCopy.notLinked);
    expect(refused).toMatchObject({ description: walletProofCopy.declined, variant: 'destructive' });
    await until(child('profile'), (s) => s.matches('ready'));
    expect(child('profile').getSnapshot().context.profile?.wallet_address).toBeNull();
  });

  it('signs in with the connected wallet: a wallet-only account, its profile holding the wallet at once', async () => {
    child('wallet').send({ type: 'wallet.connect' });
    await toastTitled(walletCopy.connected);
    const signsBefore = headless.mockWallet.requests.filter((m) => m === 'personal_sign').length;
    const toastsBefore = headless.toasts.length;

    child('auth').send({ type: 'auth.open', mode: 'login' });
    child('auth').send({ type: 'auth.signInWithWallet', address: wallet.address });
    await until(child('auth'), (s) => s.matches({ modal: 'closed' }));
    const user = await until(headless.portal, (s) => s.context.user);
    expect(headless.toasts.slice(toastsBefore).map((t) => t.title)).toContain(authCopy.loginSuccess.title);
    expect(user).toMatchObject({ email: null });
    // Checksummed, as the wallet panel shows the connected one: the user menu names it alike.
    expect(user.web3Address).toBe(wallet.address);
    expect(displayName(null, user)).toBe(shortAddress(wallet.address));

    // The sign-in itself proved the wallet: the profile holds it, and nothing more was signed.
    const profile = await until(child('profile'), (s) => s.matches('ready') && s.context.profile);
    expect(profile).toMatchObject({ id: user.id, username: null, wallet_verified_at: expect.any(String) });
    expect(profile.wallet_address?.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(headless.mockWallet.requests.filter((m) => m === 'personal_sign')).toHaveLength(signsBefore + 1);
    expect(headless.toasts.slice(toastsBefore).map((t) => t.title)).not.toContain(walletProofCopy.notLinked);
  });
});

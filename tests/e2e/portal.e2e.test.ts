import type { Page } from 'playwright-core';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatEther,
  formatUnits,
  http,
  parseEther,
  parseUnits,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  appCopy,
  authCopy,
  balanceCopy,
  portalCopy,
  shellCopy,
  shortAddress,
  walletCopy,
  webhookCopy,
} from '../../src/copy/index.ts';
import { signedInUser } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { PHONE_VIEWPORT } from '../support/e2e/browser.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { e2e, gatewayFor } from '../support/e2e/context.ts';
import {
  AVATAR_URL,
  balancesLoaded,
  button,
  clearToasts,
  connect,
  logIn,
  openWithWallet,
  setAvatar,
} from '../support/e2e/portal-page.ts';
import { admin, balanceExact, balanceValue, openSignedIn } from '../support/e2e/ui.ts';

// The portal screen (docs/product.md#portal-screen, #wallet-panel): what a visitor
// and a signed-in user see, the balances against the chain, the webhook demo and
// axe in both themes. The README screenshots are readme.screenshots.test.ts.

const viewer = e2eAccount('viewer');
const balancesAccount = e2eAccount('balances');
const balancesPayer = e2eAccount('balancesPayer');

/** The one toast on screen (status or alert region), by its title. */
function toast(page: Page, title: string) {
  return page.locator('[role="status"], [role="alert"]').getByText(title, { exact: true });
}

async function dangerColour(page: Page): Promise<string> {
  return page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--color-danger)';
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
}

const colourOf = (page: Page, label: string) =>
  balanceValue(page, label).evaluate((element) => getComputedStyle(element).color);

/** An exact balance of 1 or more as the card should show it in en-US: grouped, five decimals cut. */
function readable(exact: string): string {
  const [whole = '', fraction = ''] = exact.split('.');
  const kept = fraction.slice(0, 5).replace(/0+$/, '');
  return `${BigInt(whole).toLocaleString('en-US')}${kept ? `.${kept}` : ''}`;
}

/** How many lines a balance's value takes, and whether its text is cut short (an ellipsis). */
const oneLine = (page: Page, label: string) =>
  balanceValue(page, label).evaluate((value) => {
    const text = value.firstElementChild as HTMLElement;
    const range = document.createRange();
    range.selectNodeContents(text);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    return { lines: tops.size, clipped: text.scrollWidth > text.clientWidth };
  });

function chainClients() {
  const { rpcUrl, chainId, tokenAddress } = e2e().chain;
  const chain = defineChain({
    id: chainId,
    name: 'e2e',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  const readBalances = async (address: `0x${string}`) => ({
    native: formatEther(await reader.getBalance({ address })),
    token: formatUnits(
      await reader.readContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
      18,
    ),
  });
  const payer = createWalletClient({
    chain,
    account: privateKeyToAccount(balancesPayer.privateKey),
    transport: http(rpcUrl),
  });
  return { reader, readBalances, payer, tokenAddress };
}

describe('portal screen', () => {
  it('shows the wallet card once connected: address, both balances equal to the chain, and the webhook demo', async () => {
    const { page } = await openWithWallet({ account: balancesAccount });
    const { readBalances, payer, reader, tokenAddress } = chainClients();
    await connect(page, balancesAccount.address);
    await page.getByRole('heading', { name: webhookCopy.section }).waitFor();
    await balancesLoaded(page);

    const before = await readBalances(balancesAccount.address);
    expect(await balanceExact(page, balanceCopy.native)).toBe(before.native);
    expect(await balanceExact(page, balanceCopy.token)).toBe(before.token);

    // Someone pays the account; a refresh shows it, with 'Loading...' and a disabled button meanwhile.
    const hashes = [
      await payer.sendTransaction({ to: balancesAccount.address, value: parseEther('1.25') }),
      await payer.writeContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [balancesAccount.address, parseUnits('250.5', 18)],
      }),
    ];
    for (const hash of hashes) await reader.waitForTransactionReceipt({ hash });
    const after = await readBalances(balancesAccount.address);
    expect(Number(after.native)).toBeCloseTo(Number(before.native) + 1.25, 6);
    expect(Number(after.token)).toBeCloseTo(Number(before.token) + 250.5, 6);

    const { rpcUrl } = e2e().chain;
    // The native balance comes from the data provider through the native-balance function.
    const balanceFunction = `${gatewayFor('full').url}/functions/v1/native-balance`;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = (url: URL) => url.href.startsWith(rpcUrl) || url.href.startsWith(balanceFunction);
    await page.route(held, async (route) => {
      await gate;
      await route.fallback();
    });
    const refresh = button(page, portalCopy.refreshBalances);
    const boxBefore = await balanceValue(page, balanceCopy.native).boundingBox();
    await refresh.click();
    await expect.poll(() => balanceValue(page, balanceCopy.native).textContent()).toBe(balanceCopy.loading);
    expect(await balanceValue(page, balanceCopy.token).textContent()).toBe(balanceCopy.loading);
    expect(await refresh.isDisabled()).toBe(true);
    release();
    await expect.poll(() => balanceExact(page, balanceCopy.native)).toBe(after.native);
    expect(await balanceExact(page, balanceCopy.token)).toBe(after.token);
    expect(await refresh.isEnabled()).toBe(true);
    // The values took the space reserved for them: nothing below moved.
    expect(await balanceValue(page, balanceCopy.native).boundingBox()).toEqual(boxBefore);
  });

  it('shows each balance grouped and cut for reading, exact on hover and when copied, on one line at 360 px', async () => {
    // The account pays a transaction's fee first, so its ETH has more decimals than the card shows.
    const { reader, readBalances } = chainClients();
    const { rpcUrl, chainId } = e2e().chain;
    const own = createWalletClient({
      chain: defineChain({
        id: chainId,
        name: 'e2e',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      }),
      account: privateKeyToAccount(balancesAccount.privateKey),
      transport: http(rpcUrl),
    });
    const paid = await own.sendTransaction({ to: balancesPayer.address, value: parseEther('0.001') });
    await reader.waitForTransactionReceipt({ hash: paid });
    const exact = await readBalances(balancesAccount.address);
    expect(exact.native.split('.')[1]?.length ?? 0).toBeGreaterThan(5);

    const { page } = await openWithWallet({ account: balancesAccount }, { viewport: PHONE_VIEWPORT });
    await connect(page, balancesAccount.address);
    await balancesLoaded(page);
    for (const [label, value] of [
      [balanceCopy.native, exact.native],
      [balanceCopy.token, exact.token],
    ] as const) {
      // Grouped in the page's locale (en-US here), five decimals, cut rather than rounded up.
      expect(await balanceValue(page, label).textContent()).toBe(readable(value));
      expect(await balanceExact(page, label)).toBe(value);
      expect(await oneLine(page, label)).toEqual({ lines: 1, clipped: false });
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE_VIEWPORT.width,
    );

    // The copy button beside a value copies its exact value.
    await button(page, balanceCopy.copy(balanceCopy.native)).click();
    await toast(page, balanceCopy.copied.title).waitFor();
    await page.getByText(balanceCopy.copied.description, { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(exact.native);
    await button(page, balanceCopy.copy(balanceCopy.token)).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(exact.token);

    // A value longer than the card ends in an ellipsis on its one line; hover and copy keep it whole.
    const huge = '115792089237316195423570985008687907853269984665640564039457.584007913129639935';
    const balanceFunction = `${gatewayFor('full').url}/functions/v1/native-balance`;
    await page.route(
      (url) => url.href.startsWith(balanceFunction),
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        const response = await route.fetch();
        return route.fulfill({ response, json: { balance: huge, asset: 'ETH' } });
      },
    );
    await button(page, portalCopy.refreshBalances).click();
    await expect.poll(() => balanceExact(page, balanceCopy.native)).toBe(huge);
    expect(await oneLine(page, balanceCopy.native)).toEqual({ lines: 1, clipped: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE_VIEWPORT.width,
    );
    await button(page, balanceCopy.copy(balanceCopy.native)).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(huge);
  });

  it("shows 'Error' in red and 'Balance Fetch Error' when the balances cannot be fetched, then recovers on refresh", async () => {
    const { page } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);
    await balancesLoaded(page);
    const { rpcUrl } = e2e().chain;
    const balanceFunction = `${gatewayFor('full').url}/functions/v1/native-balance`;
    const nodeDown = (url: URL) => url.href.startsWith(rpcUrl) || url.href.startsWith(balanceFunction);
    await page.route(nodeDown, (route) => route.abort('connectionrefused'));
    await button(page, portalCopy.refreshBalances).click();
    await toast(page, balanceCopy.fetchError).waitFor();
    await expect.poll(() => balanceValue(page, balanceCopy.native).textContent()).toBe(balanceCopy.error);
    expect(await balanceValue(page, balanceCopy.token).textContent()).toBe(balanceCopy.error);
    const red = await dangerColour(page);
    expect(await colourOf(page, balanceCopy.native)).toBe(red);
    expect(await colourOf(page, balanceCopy.token)).toBe(red);

    // The node is back: a refresh shows both balances again.
    await page.unroute(nodeDown);
    await button(page, portalCopy.refreshBalances).click();
    await expect.poll(() => balanceValue(page, balanceCopy.native).textContent()).toMatch(/^[\d,.]+$/);
    await expect.poll(() => balanceValue(page, balanceCopy.token).textContent()).toMatch(/^[\d,.]+$/);
  });

  it('opens signed in from a session stored before it loaded, with no request to sign in', async () => {
    const authRequests: string[] = [];
    const { page, user } = await openSignedIn('stored', {
      beforeLoad: (opening) =>
        opening.on('request', (request) => {
          if (new URL(request.url()).pathname.startsWith('/auth/')) authRequests.push(request.url());
        }),
    });
    // openSignedIn saw Logout; nothing offers to log in or sign up.
    expect(await button(page, authCopy.login).count()).toBe(0);
    expect(await button(page, authCopy.signUp).count()).toBe(0);
    await button(page, shellCopy.userMenu(user.email.split('@')[0] ?? '')).click();
    await page
      .getByRole('dialog', { name: shellCopy.userMenuLabel })
      .getByText(user.email, { exact: true })
      .waitFor();
    // The session's start made the user's profile, as a sign-up in the page does.
    await expect
      .poll(async () => (await admin().from('profiles').select('email').eq('id', user.id)).data)
      .toEqual([{ email: user.email }]);
    expect(authRequests).toEqual([]);
  });

  it('shows a signed-in user their name, avatar, Connect Your Wallet and Logout; the demo and refresh ask for a wallet', async () => {
    const user = await signedInUser(gatewayFor('full'), 'portal');
    const { page, wallet } = await openWithWallet({ account: viewer });
    await logIn(page, user);
    const name = user.email.split('@')[0] ?? '';
    const card = page.getByRole('region', { name: portalCopy.walletTitle });
    await card.getByText(portalCopy.loggedInAs, { exact: true }).waitFor();
    await card.getByText(name, { exact: true }).waitFor();
    expect(await button(page, authCopy.login).count()).toBe(0);
    expect(await button(page, authCopy.signUp).count()).toBe(0);
    expect(await page.getByText(appCopy.visitorPrompt).count()).toBe(0);
    // No avatar yet: the placeholder icon, no image.
    expect(await page.getByRole('img', { name: portalCopy.avatarAlt(name) }).count()).toBe(0);
    expect(await balanceValue(page, balanceCopy.native).textContent()).toBe(balanceCopy.empty);
    expect(await balanceValue(page, balanceCopy.token).textContent()).toBe(balanceCopy.empty);

    await button(page, webhookCopy.create).click();
    await toast(page, webhookCopy.walletRequired.title).waitFor();
    await page.getByText(webhookCopy.walletRequired.description, { exact: true }).waitFor();
    await button(page, portalCopy.refreshBalances).click();
    await toast(page, balanceCopy.walletNotConnected.title).waitFor();

    // The profile's avatar replaces the placeholder.
    await setAvatar(user);
    await page.reload();
    const avatar = page.getByRole('img', { name: portalCopy.avatarAlt(name) });
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).toBe(AVATAR_URL);

    // The full-width connect button, 'Connecting...' while the wallet asks.
    const connectYours = button(page, walletCopy.connectYourWallet);
    await expect.poll(() => connectYours.isEnabled()).toBe(true);
    const cardBox = await card.boundingBox();
    const box = await connectYours.boundingBox();
    expect(box?.width).toBeGreaterThan((cardBox?.width ?? 0) * 0.8);
    const releaseWallet = await wallet.holdNext();
    await connectYours.click();
    await expect.poll(() => button(page, walletCopy.connecting).isDisabled()).toBe(true);
    await releaseWallet();
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();
    expect(await button(page, walletCopy.connectYourWallet).count()).toBe(0);
    await balancesLoaded(page);

    // Logout: back to Login and Sign Up; the wallet stays connected.
    await button(page, authCopy.logout).click();
    await toast(page, authCopy.loggedOut.title).waitFor();
    await button(page, authCopy.login).waitFor();
    await button(page, authCopy.signUp).waitFor();
    expect(await page.getByText(portalCopy.loggedInAs).count()).toBe(0);
    expect(await page.getByText(shortAddress(viewer.address), { exact: true }).count()).toBe(1);
  }, 90_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious axe findings in the ${colorScheme} theme: visitor, connected, wrong network, signed in`, async () => {
      const user = await signedInUser(gatewayFor('full'), `axe-${colorScheme}`);
      const { page, wallet } = await openWithWallet({ account: viewer }, { colorScheme });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
      await page.getByText(appCopy.visitorPrompt, { exact: true }).waitFor();
      const findings = await runAxe(page, `portal visitor, ${colorScheme}`);

      await connect(page, viewer.address);
      await balancesLoaded(page);
      findings.push(...(await runAxe(page, `portal connected, ${colorScheme}`)));

      await wallet.emitChainChanged(1);
      await button(page, walletCopy.switchNetwork).waitFor();
      await balancesLoaded(page);
      findings.push(...(await runAxe(page, `portal wrong network, ${colorScheme}`)));
      await button(page, walletCopy.switchNetwork).click();
      await button(page, walletCopy.switchNetwork).waitFor({ state: 'detached' });

      await logIn(page, user);
      await page.getByText(portalCopy.loggedInAs, { exact: true }).waitFor();
      await clearToasts(page);
      findings.push(...(await runAxe(page, `portal signed in, ${colorScheme}`)));
      expect(findings).toEqual([]);
    }, 90_000);
  }
});

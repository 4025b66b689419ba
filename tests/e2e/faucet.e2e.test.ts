import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { faucetCopy } from '../../src/copy/faucet.ts';
import { localHumanCheckCopy } from '../../src/copy/faucet-local.ts';
import { balanceCopy, profileCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { balancesLoaded, button } from '../support/e2e/portal-page.ts';
import { balanceExact, openSignedIn, recordToasts, toast } from '../support/e2e/ui.ts';

// The faucet through the page (issue 33): a signed-in user whose proven wallet is connected presses
// 'Get test DDEX', ticks the local build's stand-in for hCaptcha's widget, and is paid: the toast
// says how much and the DDEX balance grows by it. A second claim within 24 hours is refused with the
// local time of the next one. Nothing is claimed before the box is ticked.

const FAUCET_PATH = '/functions/v1/faucet';

/** The local time the page shows for an ISO time: the faucet machine's claimTime, in the page. */
const pageTime = (page: Page, iso: string) =>
  page.evaluate(
    (time) => new Date(time).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    iso,
  );

const ddex = async (page: Page) => Number(await balanceExact(page, balanceCopy.token));

describe('the faucet', () => {
  it('pays a proven wallet once its human check is ticked, then refuses a second claim with the next time', async () => {
    const account = e2eAccount('faucetClaimer');
    const { page, pageErrors } = await openSignedIn('faucet', { wallet: { account } });
    const claims: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(FAUCET_PATH) && request.method() === 'POST') claims.push(request.url());
    });

    // Without a proven wallet there is no faucet to press.
    await button(page, walletCopy.connectYourWallet).click();
    await page.getByText(shortAddress(account.address), { exact: true }).waitFor();
    await toast(page, profileCopy.createdAndLinked).waitFor();
    await balancesLoaded(page);
    const before = await ddex(page);

    // The press shows the local stand-in, clearly named; nothing is claimed before it is ticked.
    const seen = await recordToasts(page);
    await button(page, faucetCopy.getTestDdex).click();
    const check = page.getByRole('group', { name: faucetCopy.humanCheck.title });
    await check.getByText(localHumanCheckCopy.note).waitFor();
    expect(claims).toEqual([]);
    const paid = page.waitForResponse((response) => response.url().includes(FAUCET_PATH));
    await check.getByRole('checkbox', { name: localHumanCheckCopy.label }).click();
    expect((await paid).status()).toBe(200);
    // Its toast can make way at once for the notice of the transfer it paid: seen as it came.
    const paidWords = faucetCopy.paid('100');
    await expect.poll(async () => (await seen()).some((text) => text.includes(paidWords.title))).toBe(true);
    await expect
      .poll(async () => (await seen()).some((text) => text.includes(paidWords.description)))
      .toBe(true);
    await expect.poll(() => ddex(page)).toBe(before + 100);

    // Again within 24 hours: refused, with when the next claim may be made, in the page's time.
    await button(page, faucetCopy.getTestDdex).click();
    const refused = page.waitForResponse((response) => response.url().includes(FAUCET_PATH));
    await check.getByRole('checkbox', { name: localHumanCheckCopy.label }).click();
    const answer = await refused;
    expect(answer.status()).toBe(429);
    const { nextClaimAt } = (await answer.json()) as { nextClaimAt: string };
    const words = faucetCopy.tooSoon(await pageTime(page, nextClaimAt));
    await toast(page, words.title).waitFor();
    await toast(page, words.description).waitFor();
    expect(Date.parse(nextClaimAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(await ddex(page)).toBe(before + 100);
    expect(claims).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });
});

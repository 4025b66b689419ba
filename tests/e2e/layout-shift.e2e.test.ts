import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LAYOUT_SHIFT_INIT_SCRIPT, readLayoutShifts } from '../../bench/lib/layout-shift.ts';
import { CLS_GOAL } from '../../bench/lib/goals.ts';
import { shortAddress, walletCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal, PHONE_VIEWPORT } from '../support/e2e/browser.ts';
import { balancesLoaded } from '../support/e2e/portal-page.ts';
import { openSignedIn } from '../support/e2e/ui.ts';

// The first screen is HTML painted before any script, and what follows it (the session read, a
// wallet's connection, the chunks that arrive after the paint) must not push what a person is
// already looking at. A phone shows the least and moves the most, so these visits are 360 px wide.
// The figure is the browser's own cumulative layout shift, every shift no input caused, summed;
// `npm run bench` reports the same figure over several cold visits.

const watchShifts = (page: Page) => page.addInitScript(LAYOUT_SHIFT_INIT_SCRIPT);

async function shiftsOf(page: Page): Promise<{ cls: number; moved: string }> {
  const { cls, shifts } = await readLayoutShifts(page);
  const moved = shifts.map((shift) => `${shift.value.toFixed(4)}: ${shift.sources.join(', ')}`).join('; ');
  return { cls, moved };
}

describe('a first screen that holds still on a 360 px phone', () => {
  it('moves nothing but the header’s name as a returning signed-in user’s session is read', async () => {
    const { page } = await openSignedIn('still', { viewport: PHONE_VIEWPORT, beforeLoad: watchShifts });
    // Settled: loading has finished ('Connect Your Wallet' shows) and the balances' chunk is in.
    await page.getByRole('button', { name: walletCopy.connectYourWallet, exact: true }).waitFor();
    await balancesLoaded(page);
    const { cls, moved } = await shiftsOf(page);
    expect(cls, moved).toBeLessThanOrEqual(CLS_GOAL);
  });

  it('moves nothing as a returning wallet reconnects by itself and its balances arrive', async () => {
    // No click: the browser counts every shift (one within half a second of an input would not be).
    const account = e2eAccount('viewer');
    const { page } = await openPortal({
      viewport: PHONE_VIEWPORT,
      wallet: { account, connected: true },
      beforeLoad: watchShifts,
    });
    await page.getByText(shortAddress(account.address), { exact: true }).waitFor();
    await balancesLoaded(page);
    const { cls, moved } = await shiftsOf(page);
    expect(cls, moved).toBeLessThanOrEqual(CLS_GOAL);
  });
});

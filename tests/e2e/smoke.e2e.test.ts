import { describe, expect, it } from 'vitest';
import { appCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { openPortal } from '../support/e2e/browser.ts';

// Proves the e2e infrastructure: the built portal, served on the local stack,
// opens in Debian's Chromium with the mock wallet injected.
describe('smoke', () => {
  it('shows the portal heading with the mock wallet present, without errors or serious axe findings', async () => {
    const { page, wallet, pageErrors, externalRequests } = await openPortal({
      wallet: { account: e2eAccount('viewer') },
    });

    await expect.poll(() => page.title()).toBe(appCopy.heading);
    await page.getByRole('heading', { name: appCopy.heading, exact: true }).first().waitFor();
    // The mock wallet is on the page, not yet approved, and reaches the local chain from it.
    expect(await wallet?.isConnected()).toBe(false);
    const block = await page.evaluate(() =>
      window.__mockWallet?.provider.request({ method: 'eth_blockNumber' }),
    );
    expect(block).toMatch(/^0x[0-9a-f]+$/);
    expect(await runAxe(page, 'portal')).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(externalRequests).toEqual([]);
  });
});

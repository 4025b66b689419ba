import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { balanceCopy, portalCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { openSignedIn } from '../support/e2e/ui.ts';

// No wasted work at start (docs/architecture.md#what-loads-when): a signed-in user with a connected wallet
// who opens the portal costs one profile read, one notifications read and one
// read of each balance (the session comes from storage, not the network), and
// a refresh one read of each balance again. And the balances arriving do not
// move the page (CLS ≤ 0.1).

const BALANCE_OF = '0x70a08231';

/** A request to the gateway or the chain, named as a person reading the network panel would. */
function nameOf(request: Request): string | null {
  const url = new URL(request.url());
  if (request.url().startsWith(e2e().chain.rpcUrl) && request.method() === 'POST') {
    const body: unknown = request.postDataJSON();
    const call = (Array.isArray(body) ? body[0] : body) as { method?: string; params?: { data?: string }[] };
    if (call.method === 'eth_call')
      return call.params?.[0]?.data?.startsWith(BALANCE_OF) ? 'balanceOf' : 'eth_call';
    return call.method ?? 'rpc';
  }
  if (
    url.pathname.startsWith('/rest/') ||
    url.pathname.startsWith('/auth/') ||
    url.pathname.startsWith('/storage/') ||
    url.pathname.startsWith('/functions/')
  )
    return `${request.method()} ${url.pathname}`;
  return null;
}

function recordRequests(page: Page): string[] {
  const names: string[] = [];
  page.on('request', (request) => {
    const name = nameOf(request);
    if (name) names.push(name);
  });
  return names;
}

const count = (names: string[], name: string) => names.filter((entry) => entry === name).length;

/** Waits for the balances, until neither says 'Loading...' and the network has gone quiet. */
async function balancesShown(page: Page) {
  await page.getByRole('button', { name: portalCopy.refreshBalances }).waitFor();
  await page.getByText(balanceCopy.loading, { exact: true }).first().waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
}

describe('start-up requests', () => {
  it('reads the session from storage and the profile, notifications and each balance once, then once per refresh', async () => {
    const { page } = await openSignedIn('start', {
      wallet: { account: e2eAccount('viewer'), connected: true },
    });
    await balancesShown(page);

    // Counted from the new document on: a request the old page still had in flight (its wallet
    // link being written to the user's metadata, say) is not part of opening the portal. The new
    // page's own requests need its scripts first, so none is missed.
    await page.reload({ waitUntil: 'commit' });
    const requests = recordRequests(page);
    await balancesShown(page);
    expect({
      profiles: count(requests, 'GET /rest/v1/profiles'),
      profileWrites: count(requests, 'POST /rest/v1/profiles'),
      notifications: count(requests, 'GET /rest/v1/user_notifications'),
      auth: requests.filter((name) => name.includes('/auth/')),
      // The ETH balance comes from the data provider, through the native-balance function.
      eth: count(requests, 'POST /functions/v1/native-balance'),
      ddex: count(requests, 'balanceOf'),
    }).toEqual({ profiles: 1, profileWrites: 0, notifications: 1, auth: [], eth: 1, ddex: 1 });

    requests.length = 0;
    await page.getByRole('button', { name: portalCopy.refreshBalances }).click();
    await balancesShown(page);
    expect({
      eth: count(requests, 'POST /functions/v1/native-balance'),
      ddex: count(requests, 'balanceOf'),
    }).toEqual({
      eth: 1,
      ddex: 1,
    });
    expect(requests.filter((name) => name.startsWith('GET /rest/'))).toEqual([]);
  });

  it('does not move the page when the balances arrive (cumulative layout shift at most 0.1)', async () => {
    const { page } = await openPortal({ wallet: { account: e2eAccount('viewer'), connected: true } });
    await balancesShown(page);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[])
              if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
          // Buffered entries are delivered in the observer's first callback, after this task.
          setTimeout(() => resolve(total), 100);
        }),
    );
    expect(shift).toBeLessThanOrEqual(0.1);
  });
});

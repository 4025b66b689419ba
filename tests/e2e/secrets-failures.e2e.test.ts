import { createPublicClient, http } from 'viem';
import { getTransactionCount } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalExport } from '../../src/devtools/journal-types.ts';
import { sendCopy, shortAddress, tokenCopy, walletCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal, type Portal } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import {
  browserStorage,
  consoleAndErrors,
  cookiesText,
  domText,
  exportJournal,
  historyText,
  keyForms,
  recordTraffic,
  type Traffic,
} from '../support/e2e/secret-sweep.ts';
import { toast } from '../support/e2e/ui.ts';

// docs/reliability-and-security.md#sends: the private key typed into the send form is dropped
// whenever a send stops, not only after a successful one. Each way a private-key send can fail
// is walked through on one page, and after each the key is looked for everywhere the browser
// keeps or shows something (secrets.e2e's sweep, whose planted test shows it finds a key).
//
// Nothing here reaches the chain: the `faults` wallet never sends (its nonce is checked at the end).

const owner = e2eAccount('faults');
const stranger = e2eAccount('viewerAlt');
const recipient = e2eAccount('sink');

const FORMS = [...keyForms(owner.privateKey, 'wallet key'), ...keyForms(stranger.privateKey, 'other key')];
const keysIn = (text: string) => FORMS.filter((form) => form.in(text)).map((form) => form.name);

let portal: Portal;
let traffic: Traffic;
let nonceBefore = 0;
/** Sends pressed so far, so the journal test knows how many submits to find whatever ran before it. */
let submitted = 0;

const reader = () => createPublicClient({ transport: http(e2e().chain.rpcUrl) });

beforeAll(async () => {
  portal = await openPortal({ path: '/?devtools', wallet: { account: owner } });
  traffic = recordTraffic(portal.context, portal.page);
  await portal.page.reload();
  await portal.page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
  await portal.page.getByText(shortAddress(owner.address), { exact: true }).waitFor();
  nonceBefore = await getTransactionCount(reader(), { address: owner.address });
});

afterAll(async () => {
  await portal.page.unrouteAll({ behavior: 'ignoreErrors' });
});

/** Fills the form, presses Send, and waits for the toast (and its words) that end this way of failing. */
async function failWith(key: string, amount: string, title: string, words: string | RegExp) {
  const { page } = portal;
  await page.getByLabel(sendCopy.recipient, { exact: true }).fill(recipient.address);
  await page.getByLabel(sendCopy.amount, { exact: true }).fill(amount);
  await page.getByLabel(sendCopy.privateKey, { exact: true }).fill(key);
  await page.getByRole('button', { name: sendCopy.submit, exact: true }).click();
  submitted += 1;
  await toast(page, title).waitFor({ timeout: 30_000 });
  await page.locator('[aria-live]').getByText(words).first().waitFor();
}

/** Every place the sweep reads, with what it found: an empty list means the key is nowhere. */
async function sweep(): Promise<string[]> {
  const { page, context } = portal;
  const storage = await browserStorage(page);
  const dom = await domText(page);
  const requests = await traffic.requests();
  const places: [string, string][] = [
    ['localStorage', storage.localStorage],
    ['sessionStorage', storage.sessionStorage],
    ['IndexedDB', storage.indexedDB],
    ['storage state', JSON.stringify(await context.storageState({ indexedDB: true }))],
    ['cookies', await cookiesText(context)],
    ['URL and history', await historyText(page)],
    ['console', consoleAndErrors(portal)],
    ['DOM markup', dom.markup],
    ['field values', dom.values],
    ['WebSocket frames', traffic.frames.join('\n')],
    ...requests.map((request): [string, string] => [
      `${request.method} ${request.url}`,
      `${request.url}\n${request.headers}\n${request.body}`,
    ]),
  ];
  return places.flatMap(([where, text]) => keysIn(text).map((found) => `${found} in ${where}`));
}

describe('after each way a private-key send fails, the key is nowhere the browser keeps or shows', () => {
  it('a key that is not 64 hex digits', async () => {
    await failWith(`${owner.privateKey}ff`, '1', sendCopy.invalidTransfer, tokenCopy.invalidPrivateKeyFormat);
    expect(await sweep()).toEqual([]);
  });

  it("another account's key", async () => {
    await failWith(stranger.privateKey, '1', sendCopy.invalidTransfer, sendCopy.keyMismatch);
    expect(await sweep()).toEqual([]);
  });

  it('an amount above the balance, refused before anything is signed', async () => {
    await failWith(
      owner.privateKey,
      '99000000',
      sendCopy.invalidTransfer,
      /does not hold enough|but the transfer needs/,
    );
    expect(await sweep()).toEqual([]);
  });

  it('a node that cannot be reached', async () => {
    const { page } = portal;
    const { rpcUrl } = e2e().chain;
    const node = (url: URL) => url.href.startsWith(rpcUrl);
    await page.route(node, (route) => route.abort('connectionrefused'));
    try {
      await failWith(owner.privateKey, '1', sendCopy.transferFailed, tokenCopy.rpcUnavailable);
    } finally {
      await page.unroute(node);
    }
    expect(await sweep()).toEqual([]);
  });

  it('a broadcast whose answer never comes', async () => {
    const { page } = portal;
    const { rpcUrl } = e2e().chain;
    // The signed transaction is stopped on its way out, so the node never sees it.
    const broadcast = (url: URL) => url.href.startsWith(rpcUrl);
    await page.route(broadcast, (route) =>
      (route.request().postData() ?? '').includes('eth_sendRawTransaction')
        ? route.abort('failed')
        : route.fallback(),
    );
    try {
      await failWith(owner.privateKey, '1', sendCopy.mayHaveBeenSent, /0x[0-9a-f]{64}/);
    } finally {
      await page.unroute(broadcast);
    }
    expect(await sweep()).toEqual([]);
  });

  it('nor in the exported journal, which recorded every submit with the key redacted', async () => {
    const journal = await exportJournal(portal.page);
    expect(keysIn(journal)).toEqual([]);
    const { entries } = JSON.parse(journal) as JournalExport;
    const submits = entries.filter((entry) => entry.event.type === 'send.submit').map((e) => e.event);
    expect(submits).toHaveLength(submitted);
    for (const submit of submits) expect(submit).toMatchObject({ privateKey: '[redacted]' });
    // The sweep read the journal with the panel open: the DOM shows it too.
    expect(keysIn((await domText(portal.page)).markup)).toEqual([]);
    // None of them reached the chain.
    expect(await getTransactionCount(reader(), { address: owner.address })).toBe(nonceBefore);
  });
});

import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  createPublicClient,
  decodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseTransaction,
  parseUnits,
  type Hex,
} from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalExport } from '../../src/devtools/journal-types.ts';
import { authCopy, profileCopy, sendCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { uniqueEmail } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal, type Portal } from '../support/e2e/browser.ts';
import { e2e, gatewayFor } from '../support/e2e/context.ts';
import {
  browserStorage,
  consoleAndErrors,
  cookiesText,
  domText,
  exportJournal,
  historyText,
  keyForms,
  recordTraffic,
  type BrowserStorage,
  type SentRequest,
  type Traffic,
} from '../support/e2e/secret-sweep.ts';
import { toast } from '../support/e2e/ui.ts';

// Issue 7/7 "Secrets": after a real session — sign-up and sign-in with a
// password typed into the dialog, a DDEX transfer signed with a private key
// typed into the send form — neither secret is in any place a browser keeps
// or shows: storage, IndexedDB, cookies, URLs, the console, the network (the
// auth calls carry the password, as they must; the signed transaction carries
// a signature, not the key), the event journal, the DOM. Each place is its own
// test, so a failure names where the secret leaked; the last test plants a
// secret in each place and sees every sweep find it, so a clean sweep means
// something.

const sender = e2eAccount('secrets');
const recipient = e2eAccount('sink');

const PASSWORD = `Secrets-${randomUUID()}`;
const KEY = sender.privateKey;
const KEY_DIGITS = KEY.slice(2).toLowerCase();
/** As a wallet exports it: 64 hex digits, no 0x. */
const KEY_AS_TYPED = KEY_DIGITS;
const AMOUNT = '1.5';

/** Every way each secret could be written down; hex is compared ignoring case, with or without 0x. */
const SECRET_FORMS: { name: string; in: (text: string) => boolean }[] = [
  { name: 'password', in: (text) => text.includes(PASSWORD) },
  { name: 'password (base64)', in: (text) => text.includes(Buffer.from(PASSWORD).toString('base64')) },
  ...keyForms(KEY, 'private key'),
  // The proof the wallet signed to link itself: read from the one call that must carry it.
  {
    name: 'wallet signature',
    in: (text) => session.signature !== '' && text.toLowerCase().includes(session.signature),
  },
];

/** The forms of either secret found in `text`. */
const secretsIn = (text: string): string[] =>
  SECRET_FORMS.filter((form) => form.in(text)).map((form) => form.name);

const passwordOnly = (found: string[]) => found.every((name) => name.startsWith('password'));

// ---- the session ----

async function authenticate(page: Page, mode: 'signUp' | 'login', email: string) {
  const opener = mode === 'signUp' ? authCopy.signUp : authCopy.login;
  await page.getByRole('button', { name: opener, exact: true }).click();
  const dialog = page.getByRole('dialog', {
    name: mode === 'signUp' ? authCopy.titleSignUp : authCopy.titleLogin,
  });
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: opener, exact: true }).click();
  await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
  await dialog.waitFor({ state: 'detached' });
}

type Checkpoint = 'signed up' | 'transfer submitted' | 'signed in again';

const session = {
  portal: null as Portal | null,
  traffic: null as Traffic | null,
  storage: [] as [Checkpoint, BrowserStorage][],
  cookies: [] as [Checkpoint, string][],
  urls: [] as [string, string][],
  dom: [] as [string, { markup: string; values: string }][],
  journal: '',
  /** The wallet's signature of the link proof: hex digits, lower case, no 0x. */
  signature: '',
};

beforeAll(async () => {
  const portal = await openPortal({ path: '/?devtools', wallet: { account: sender } });
  const { page, context } = portal;
  session.portal = portal;
  // From the first request of the page the secrets are typed into.
  session.traffic = recordTraffic(context, page);
  await page.reload();
  const checkpoint = async (name: Checkpoint) => {
    session.storage.push([name, await browserStorage(page)]);
    session.cookies.push([name, await cookiesText(context)]);
    session.urls.push([`page.url() ${name}`, page.url()], [`history ${name}`, await historyText(page)]);
    session.dom.push([name, await domText(page)]);
  };

  const email = uniqueEmail('secrets');
  await authenticate(page, 'signUp', email);
  await checkpoint('signed up');

  // The new profile asks the wallet to prove itself before it is linked.
  const proof = page.waitForRequest(
    (request) =>
      request.url().includes('/functions/v1/link-wallet') && !!request.postData()?.includes('signature'),
  );
  const linked = toast(page, profileCopy.createdAndLinked).waitFor();
  await page.getByRole('button', { name: walletCopy.connectYourWallet, exact: true }).click();
  await page.getByText(shortAddress(sender.address), { exact: true }).waitFor();
  const { signature } = (await proof).postDataJSON() as { signature: string };
  session.signature = signature.replace(/^0x/, '').toLowerCase();
  expect(session.signature).toMatch(/^[0-9a-f]{130}$/);
  await linked;
  await page.getByLabel(sendCopy.recipient, { exact: true }).fill(recipient.address);
  await page.getByLabel(sendCopy.amount, { exact: true }).fill(AMOUNT);
  await page.getByLabel(sendCopy.privateKey, { exact: true }).fill(KEY_AS_TYPED);
  // A signed-in send is recorded in the history too: that call is part of the sweep.
  const recorded = page.waitForResponse((response) =>
    response.url().includes('/functions/v1/record-transaction'),
  );
  await page.getByRole('button', { name: sendCopy.submit, exact: true }).click();
  session.dom.push(['right after Send was pressed', await domText(page)]);
  await toast(page, sendCopy.transferSubmitted).waitFor({ timeout: 30_000 });
  await recorded;
  await checkpoint('transfer submitted');

  await page.getByRole('button', { name: authCopy.logout, exact: true }).click();
  await page.getByRole('button', { name: authCopy.login, exact: true }).waitFor();
  await authenticate(page, 'login', email);
  await checkpoint('signed in again');

  session.journal = await exportJournal(page);
  // With the panel open the journal's entries and payloads are in the DOM too.
  session.dom.push(['with the journal shown', await domText(page)]);
  session.urls.push(['page.url() at the end', page.url()]);
});

const started = () => {
  const { portal, traffic } = session;
  if (!portal || !traffic) throw new Error('the session did not run');
  return { portal, traffic };
};

describe('after sign-up, a wallet proof, a signed transfer and sign-in, neither the password, the private key nor the wallet’s signature is', () => {
  it('in localStorage', () => {
    for (const [checkpoint, storage] of session.storage) {
      expect(secretsIn(storage.localStorage), `localStorage, ${checkpoint}`).toEqual([]);
    }
    // The sweep read the stored session (supabase-js keeps it here): it is not looking at nothing.
    expect(session.storage.at(-1)?.[1].localStorage).toMatch(/-auth-token/);
  });

  it('in sessionStorage', () => {
    for (const [checkpoint, storage] of session.storage) {
      expect(secretsIn(storage.sessionStorage), `sessionStorage, ${checkpoint}`).toEqual([]);
    }
  });

  it('in IndexedDB (every database, store and record)', () => {
    for (const [checkpoint, storage] of session.storage) {
      expect(secretsIn(storage.indexedDB), `IndexedDB, ${checkpoint}`).toEqual([]);
    }
  });

  it('in the storage state of any origin the browser kept', async () => {
    const state = await started().portal.context.storageState({ indexedDB: true });
    expect(secretsIn(JSON.stringify(state))).toEqual([]);
  });

  it('in cookies', () => {
    for (const [checkpoint, cookies] of session.cookies) {
      expect(secretsIn(cookies), `cookies, ${checkpoint}`).toEqual([]);
    }
  });

  it('in the URL or any navigation or history entry', () => {
    const { traffic } = started();
    for (const [where, text] of session.urls) expect(secretsIn(text), where).toEqual([]);
    expect(traffic.navigations.length).toBeGreaterThan(0);
    for (const url of traffic.navigations) expect(secretsIn(url), `navigated to ${url}`).toEqual([]);
  });

  it('in the console or an uncaught error', () => {
    const { portal } = started();
    expect(secretsIn(consoleAndErrors(portal))).toEqual([]);
  });

  it('in any request URL or header', async () => {
    const requests = await started().traffic.requests();
    const leaks = requests.flatMap(({ method, url, headers }) => [
      ...secretsIn(url).map((found) => `${found} in the URL of ${method} ${url}`),
      ...secretsIn(headers).map((found) => `${found} in a header of ${method} ${url}`),
    ]);
    expect(leaks).toEqual([]);
  });

  it('in any request body but the sign-up and sign-in calls, which carry the password, and the link proof, which carries the signature', async () => {
    const requests = await started().traffic.requests();
    const gateway = gatewayFor('full').url;
    const isLinkProof = ({ method, url, body }: SentRequest) =>
      method === 'POST' && url === `${gateway}/functions/v1/link-wallet` && body.includes('signature');
    const authCall = ({ method, url }: SentRequest): 'signUp' | 'signIn' | null => {
      const { origin, pathname, searchParams } = new URL(url);
      if (method !== 'POST' || origin !== gateway) return null;
      if (pathname === '/auth/v1/signup') return 'signUp';
      return pathname === '/auth/v1/token' && searchParams.get('grant_type') === 'password' ? 'signIn' : null;
    };
    const isAuthCall = (request: SentRequest) => authCall(request) !== null;
    const signatureOnly = (found: string[]) => found.every((name) => name === 'wallet signature');
    const leaks = requests
      .filter((request) => !(isAuthCall(request) && passwordOnly(secretsIn(request.body))))
      .filter((request) => !(isLinkProof(request) && signatureOnly(secretsIn(request.body))))
      .flatMap(({ method, url, body }) => secretsIn(body).map((found) => `${found} in ${method} ${url}`));
    expect(leaks).toEqual([]);

    // The sweep reads bodies: the password is where it has to be, once for each time it was typed.
    const signUps = requests.filter((request) => authCall(request) === 'signUp');
    const signIns = requests.filter((request) => authCall(request) === 'signIn');
    expect(signUps.map((request) => secretsIn(request.body))).toEqual([['password']]);
    expect(signIns.map((request) => secretsIn(request.body))).toEqual([['password']]);
    expect(requests.filter(isLinkProof).map((request) => secretsIn(request.body))).toEqual([
      ['wallet signature'],
    ]);
  });

  it('in the signed transaction sent to the chain, which is signed by the key without holding it', async () => {
    const requests = await started().traffic.requests();
    const { rpcUrl, tokenAddress } = e2e().chain;
    const raw = requests
      .filter((request) => request.url.startsWith(rpcUrl))
      .flatMap((request) => {
        const parsed = JSON.parse(request.body || 'null') as unknown;
        const calls = (Array.isArray(parsed) ? parsed : [parsed]) as {
          method?: string;
          params?: unknown[];
        }[];
        return calls.filter((call) => call?.method === 'eth_sendRawTransaction');
      })
      .map((call) => call.params?.[0] as Hex);
    expect(raw).toHaveLength(1);
    const [signed = '0x'] = raw;
    expect(secretsIn(signed)).toEqual([]);

    // It is the transfer that was made: to the token, recipient and amount typed, mined from the key's account.
    const transaction = parseTransaction(signed);
    expect(transaction.to?.toLowerCase()).toBe(tokenAddress.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: transaction.data ?? '0x' })).toMatchObject({
      functionName: 'transfer',
      args: [recipient.address, parseUnits(AMOUNT, 18)],
    });
    const receipt = await createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({
      hash: keccak256(signed),
    });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(sender.address.toLowerCase());
  });

  it('in any WebSocket message (realtime)', () => {
    const { traffic } = started();
    expect(traffic.sockets.length).toBeGreaterThan(0);
    expect(traffic.sockets.flatMap((url) => secretsIn(url))).toEqual([]);
    // The realtime subscription's join was sent: the sweep sees what goes over the socket.
    expect(traffic.frames.some((frame) => frame.includes('phx_join'))).toBe(true);
    expect(traffic.frames.flatMap((frame) => secretsIn(frame))).toEqual([]);
  });

  it('in the exported event journal, which recorded both submits with the secrets redacted', () => {
    expect(secretsIn(session.journal)).toEqual([]);
    const { entries } = JSON.parse(session.journal) as JournalExport;
    const submits = (type: string) =>
      entries.filter((entry) => entry.event.type === type).map((e) => e.event);
    expect(submits('auth.submit')).toEqual([
      expect.objectContaining({ password: '[redacted]' }),
      expect.objectContaining({ password: '[redacted]' }),
    ]);
    expect(submits('send.submit')).toEqual([
      expect.objectContaining({ recipient: recipient.address, amount: AMOUNT, privateKey: '[redacted]' }),
    ]);
  });

  it('in the DOM after submitting (markup and every field’s value)', () => {
    expect(session.dom.map(([where]) => where)).toContain('right after Send was pressed');
    for (const [where, dom] of session.dom) {
      expect(secretsIn(dom.markup), `DOM markup, ${where}`).toEqual([]);
      expect(secretsIn(dom.values), `field values, ${where}`).toEqual([]);
    }
  });
});

describe('the sweep', () => {
  it('finds a secret planted in each place it looks', async () => {
    const portal = await openPortal({ path: '/?devtools' });
    const { page, context } = portal;
    const traffic = recordTraffic(context, page);
    const gateway = gatewayFor('full');
    await page.evaluate(
      async ({ digits, password, realtime }) => {
        const bytes = Uint8Array.from(digits.match(/../g) ?? [], (pair) => parseInt(pair, 16));
        localStorage.setItem('planted', digits.toUpperCase());
        sessionStorage.setItem('planted', `0x${digits}`);
        await new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('planted', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('things');
          open.onerror = () => reject(open.error ?? new Error('open failed'));
          open.onsuccess = () => {
            const db = open.result;
            const write = db.transaction('things', 'readwrite');
            write.objectStore('things').put({ raw: bytes }, 'key');
            write.oncomplete = () => {
              db.close();
              resolve();
            };
            write.onerror = () => reject(write.error ?? new Error('write failed'));
          };
        });
        document.cookie = `planted=${digits}`;
        history.pushState(null, '', `?devtools&planted=${digits}`);
        console.warn('planted', password);
        const field = document.createElement('input');
        document.body.append(field);
        field.value = password;
        const note = document.createElement('p');
        note.dataset['planted'] = `0x${digits}`;
        document.body.append(note);
        // A frame over a socket to the realtime endpoint, sent once it is open.
        await new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(realtime);
          socket.onopen = () => {
            socket.send(
              JSON.stringify({ topic: 'planted', event: 'phx_join', payload: { digits }, ref: '1' }),
            );
            socket.close();
            resolve();
          };
          socket.onerror = () => reject(new Error('the realtime socket did not open'));
        });
        await fetch(`/planted?${digits}`, {
          method: 'POST',
          headers: { 'x-planted': digits },
          body: password,
        });
      },
      {
        digits: KEY_DIGITS,
        password: PASSWORD,
        realtime: `${gateway.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${gateway.anonKey}&vsn=1.0.0`,
      },
    );
    // Into the journal through the UI: the key typed as the login e-mail, which is not redacted.
    await page.getByRole('button', { name: authCopy.login, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: authCopy.titleLogin });
    await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(`${KEY_DIGITS}@planted.example`);
    await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
    await toast(page, authCopy.loginFailed).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const storage = await browserStorage(page);
    expect(secretsIn(storage.localStorage)).toContain('private key (hex)');
    expect(secretsIn(storage.sessionStorage)).toContain('private key (hex)');
    expect(secretsIn(storage.indexedDB)).toContain('private key (hex)');
    const state = await context.storageState({ indexedDB: true });
    expect(secretsIn(JSON.stringify(state))).toContain('private key (hex)');
    expect(secretsIn(await cookiesText(context))).toContain('private key (hex)');
    expect(secretsIn(await historyText(page))).toContain('private key (hex)');
    expect(secretsIn(traffic.navigations.join('\n'))).toContain('private key (hex)');
    expect(secretsIn(consoleAndErrors(portal))).toEqual(['password']);
    const dom = await domText(page);
    expect(secretsIn(dom.markup)).toEqual(['private key (hex)']);
    expect(secretsIn(dom.values)).toEqual(['password']);
    expect(traffic.frames.flatMap((frame) => secretsIn(frame))).toEqual(['private key (hex)']);
    expect(secretsIn(await exportJournal(page))).toEqual(['private key (hex)']);
    const planted = (await traffic.requests()).find((request) => request.url.includes('/planted?'));
    expect(secretsIn(planted?.url ?? '')).toContain('private key (hex)');
    expect(secretsIn(planted?.headers ?? '')).toContain('private key (hex)');
    expect(secretsIn(planted?.body ?? '')).toEqual(['password']);
  });
});

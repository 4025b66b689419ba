import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { devtoolsCopy } from '../../../src/devtools/panel/devtools.copy.ts';
import type { Portal } from './browser.ts';

// Where a browser keeps or shows what a page typed, read back for the secrets sweeps
// (secrets.e2e, secrets-failures.e2e): requests, sockets, storage, the DOM, the console and the
// exported event journal.

/** Every form of a private key it could be written down in: hex (any case, with or without 0x), decimal, base64. */
export function keyForms(
  privateKey: string,
  label: string,
): { name: string; in: (text: string) => boolean }[] {
  const digits = privateKey.replace(/^0x/, '').toLowerCase();
  const bytes = Buffer.from(digits, 'hex');
  return [
    { name: `${label} (hex)`, in: (text) => text.toLowerCase().includes(digits) },
    { name: `${label} (decimal)`, in: (text) => text.includes(BigInt(`0x${digits}`).toString(10)) },
    {
      name: `${label} (base64)`,
      in: (text) => text.includes(bytes.toString('base64')) || text.includes(bytes.toString('base64url')),
    },
  ];
}

// ---- what the browser sent ----

export type SentRequest = { url: string; method: string; headers: string; body: string };
export type Traffic = {
  requests(): Promise<SentRequest[]>;
  /** The URL of every WebSocket the page opened (realtime). */
  sockets: string[];
  /** Every message the page sent over them. */
  frames: string[];
  /** Every URL any frame of the page navigated to, including history.pushState. */
  navigations: string[];
};

async function describeRequest(request: Request): Promise<SentRequest> {
  // allHeaders() adds what the network stack set (cookie, …); a request cut off may never report them.
  const settled = new Promise<Record<string, string>>((resolve) =>
    setTimeout(() => resolve(request.headers()), 5_000),
  );
  // A request still open when its page closes can no longer tell them: what it was asked with stands.
  const headers = await Promise.race([request.allHeaders().catch(() => request.headers()), settled]);
  return {
    url: request.url(),
    method: request.method(),
    headers: JSON.stringify(headers),
    body: request.postDataBuffer()?.toString('utf8') ?? '',
  };
}

export function recordTraffic(context: BrowserContext, page: Page): Traffic {
  const requests: Promise<SentRequest>[] = [];
  const sockets: string[] = [];
  const frames: string[] = [];
  const navigations: string[] = [];
  context.on('request', (request) => requests.push(describeRequest(request)));
  page.on('websocket', (socket) => {
    sockets.push(socket.url());
    socket.on('framesent', ({ payload }) => frames.push(String(payload)));
  });
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  return { requests: () => Promise.all(requests), sockets, frames, navigations };
}

// ---- what the browser keeps ----

export type BrowserStorage = { localStorage: string; sessionStorage: string; indexedDB: string };

/** Every key and value of both storages, and every record (keys and values) of every IndexedDB store. */
export function browserStorage(page: Page): Promise<BrowserStorage> {
  return page.evaluate(async () => {
    const dump = (storage: Storage) =>
      JSON.stringify(Object.keys(storage).map((key) => [key, storage.getItem(key)]));
    const ask = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
      });
    const hex = (bytes: Uint8Array) =>
      Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    // Bytes become hex, so a key stored as raw bytes is found like one stored as text.
    const plain = async (value: unknown): Promise<unknown> => {
      if (value instanceof ArrayBuffer) return hex(new Uint8Array(value));
      if (ArrayBuffer.isView(value))
        return hex(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      if (value instanceof Blob) return hex(new Uint8Array(await value.arrayBuffer()));
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Map) return plain([...value.entries()]);
      if (value instanceof Set) return plain([...value.values()]);
      if (Array.isArray(value)) return Promise.all(value.map(plain));
      if (typeof value === 'object' && value !== null) {
        const entries = await Promise.all(
          Object.entries(value).map(async ([key, item]) => [key, await plain(item)] as const),
        );
        return Object.fromEntries(entries);
      }
      return typeof value === 'bigint' ? value.toString() : value;
    };
    const records: unknown[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await ask(indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames)) {
        const objects = db.transaction(store, 'readonly').objectStore(store);
        const [keys, values] = await Promise.all([ask(objects.getAllKeys()), ask(objects.getAll())]);
        records.push({ database: name, store, keys: await plain(keys), values: await plain(values) });
      }
      db.close();
    }
    return {
      localStorage: dump(localStorage),
      sessionStorage: dump(sessionStorage),
      indexedDB: JSON.stringify(records),
    };
  });
}

/** The markup of every frame and the live value of every field (outerHTML shows typed values nowhere). */
export async function domText(page: Page): Promise<{ markup: string; values: string }> {
  const frames = await Promise.all(
    page.frames().map((frame) =>
      frame.evaluate(() => ({
        markup: document.documentElement.outerHTML,
        values: Array.from(
          document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
            'input, textarea, select',
          ),
          (field) => field.value,
        ).join('\n'),
      })),
    ),
  );
  return {
    markup: frames.map((frame) => frame.markup).join('\n'),
    values: frames.map((frame) => frame.values).join('\n'),
  };
}

/** The page's URL and what it can see of its history: the Navigation API's entries, state, referrer. */
export function historyText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const navigation = (window as { navigation?: { entries(): { url: string | null }[] } }).navigation;
    return JSON.stringify({
      href: location.href,
      referrer: document.referrer,
      state: history.state as unknown,
      entries: navigation?.entries().map((entry) => entry.url) ?? [],
      loads: performance.getEntriesByType('navigation').map((entry) => entry.name),
    });
  });
}

export const cookiesText = async (context: BrowserContext) => JSON.stringify(await context.cookies());

export const consoleAndErrors = (portal: Portal) =>
  [portal.consoleText(), ...portal.pageErrors.map((error) => `${error.message}\n${error.stack ?? ''}`)].join(
    '\n',
  );

/** Opens the devtools panel (the page was opened with ?devtools) and downloads the journal. */
export async function exportJournal(page: Page): Promise<string> {
  await page.getByRole('button', { name: devtoolsCopy.toggleText, exact: true }).click();
  const panel = page.getByRole('region', { name: devtoolsCopy.title, exact: true });
  await panel.getByRole('tab', { name: devtoolsCopy.tabs.journal }).click();
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: devtoolsCopy.journal.export }).click();
  return readFile(await (await download).path(), 'utf8');
}

import { describe, expect, it } from 'vitest';
import { interactiveInitScript, type InteractiveProbe } from '../../bench/lib/interactive.ts';
import { LAYOUT_SHIFT_INIT_SCRIPT, type LayoutShifts } from '../../bench/lib/layout-shift.ts';

// The bench's in-page probes (bench/lib/interactive.ts, bench/lib/layout-shift.ts) are init
// scripts, plain JavaScript run before the portal's own. Here they run against small stand-ins
// for the page's DOM, frame loop, wallet and performance timeline: the interactive probe clicks
// Connect Wallet only once it is enabled and stamps the wallet's eth_requestAccounts; the layout
// probe sums the shifts no input caused, those still queued in the observer included.

type FakeButton = { textContent: string; disabled: boolean; click: () => void };

function pageWithButton(label: string) {
  let now = 0;
  const requests: string[] = [];
  const frames: (() => void)[] = [];
  const observers: (() => void)[] = [];
  const window: { __interactive?: InteractiveProbe; __mockWallet?: unknown } = {};
  const provider = {
    request: (args: { method: string }) => {
      requests.push(args.method);
      return Promise.resolve([]);
    },
  };
  window.__mockWallet = { provider };
  const button: FakeButton = {
    textContent: `  ${label} `,
    disabled: true,
    // What the portal's click handler ends in: the wallet asked to connect.
    click: () => void provider.request({ method: 'eth_requestAccounts' }),
  };
  const globals = {
    window,
    document: { querySelectorAll: () => [button] },
    performance: { now: () => now },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    MutationObserver: class {
      constructor(callback: () => void) {
        observers.push(callback);
      }
      observe() {}
    },
  };
  return {
    window,
    button,
    requests,
    provider,
    run(script: string) {
      new Function(...Object.keys(globals), script)(...Object.values(globals));
    },
    /** Time passes to `at` ms and the next frame runs. */
    frame(at: number) {
      now = at;
      frames.shift()?.();
    },
    /** The DOM changed at `at` ms. */
    mutate(at: number) {
      now = at;
      for (const observer of observers) observer();
    },
  };
}

describe('interactive probe', () => {
  it('clicks Connect Wallet once it is enabled and stamps the moment the wallet is asked to connect', () => {
    const page = pageWithButton('Connect Wallet');
    page.run(interactiveInitScript('Connect Wallet', true));
    void page.provider.request({ method: 'eth_accounts' });
    page.frame(16);
    page.mutate(20);
    expect(page.window.__interactive).toEqual({ enabledAt: null, requestedAt: null, clicks: 0 });

    page.button.disabled = false;
    page.mutate(250);
    expect(page.window.__interactive).toEqual({ enabledAt: 250, requestedAt: 250, clicks: 1 });
    expect(page.requests).toEqual(['eth_accounts', 'eth_requestAccounts']);

    // Done: no more clicks, whatever the page does next.
    page.mutate(260);
    page.frame(270);
    expect(page.window.__interactive?.clicks).toBe(1);
  });

  it('keeps clicking on later frames while a click changes nothing yet', () => {
    const page = pageWithButton('Connect Wallet');
    const ignored = page.button.click;
    page.button.click = () => {};
    page.button.disabled = false;
    page.run(interactiveInitScript('Connect Wallet', true));
    page.frame(100);
    page.button.click = ignored;
    page.frame(116);
    expect(page.window.__interactive).toEqual({ enabledAt: 100, requestedAt: 116, clicks: 2 });
  });

  it('without a wallet, only stamps when the button is enabled and never clicks', () => {
    const page = pageWithButton('Connect Wallet');
    page.button.click = () => {
      throw new Error('clicked');
    };
    page.run(interactiveInitScript('Connect Wallet', false));
    page.frame(300);
    page.button.disabled = false;
    page.frame(516);
    expect(page.window.__interactive).toEqual({ enabledAt: 516, requestedAt: null, clicks: 0 });
  });

  it('leaves other buttons alone', () => {
    const page = pageWithButton('Login');
    page.button.disabled = false;
    page.run(interactiveInitScript('Connect Wallet', true));
    page.frame(16);
    expect(page.window.__interactive).toEqual({ enabledAt: null, requestedAt: null, clicks: 0 });
  });
});

type FakeShift = { value: number; startTime: number; hadRecentInput: boolean; sources: { node: unknown }[] };

describe('layout shift probe', () => {
  it('sums the shifts no input caused, the queued ones included, and names what moved', () => {
    let deliver: (entries: FakeShift[]) => void = () => {};
    const queued: FakeShift[] = [];
    const window: { __layoutShifts?: { read: () => LayoutShifts } } = {};
    class PerformanceObserver {
      constructor(callback: (list: { getEntries: () => FakeShift[] }) => void) {
        deliver = (entries) => callback({ getEntries: () => entries });
      }
      observe(options: { type: string; buffered: boolean }) {
        expect(options).toEqual({ type: 'layout-shift', buffered: true });
      }
      takeRecords() {
        return queued.splice(0);
      }
    }
    new Function('window', 'PerformanceObserver', LAYOUT_SHIFT_INIT_SCRIPT)(window, PerformanceObserver);

    const footer = { nodeName: 'FOOTER', textContent: '\n  DDEX   Token Portal  ' };
    deliver([
      { value: 0.004, startTime: 300, hadRecentInput: false, sources: [{ node: footer }] },
      { value: 0.5, startTime: 310, hadRecentInput: true, sources: [] },
    ]);
    queued.push({ value: 0.003, startTime: 900, hadRecentInput: false, sources: [{ node: null }] });

    const read = window.__layoutShifts?.read();
    expect(read?.cls).toBeCloseTo(0.007, 10);
    expect(read?.shifts).toEqual([
      { value: 0.004, at: 300, sources: ['footer "DDEX Token Portal"'] },
      { value: 0.003, at: 900, sources: ['(removed)'] },
    ]);
  });

  it('says NaN where the browser has no layout-shift entries', () => {
    const window: { __layoutShifts?: { read: () => LayoutShifts } } = {};
    class PerformanceObserver {
      observe() {
        throw new TypeError('layout-shift is not supported');
      }
    }
    new Function('window', 'PerformanceObserver', LAYOUT_SHIFT_INIT_SCRIPT)(window, PerformanceObserver);
    expect(window.__layoutShifts?.read().cls).toBeNaN();
  });
});

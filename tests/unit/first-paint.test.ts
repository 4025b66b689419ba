import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstCommit, afterFirstPaint } from '../../src/app/first-paint.ts';

// The services' code waits for the first contentful paint, but never longer than the fallback.

type Callback = (list: { getEntriesByName(name: string): unknown[] }) => void;

function fakePaintTiming() {
  const observers: Callback[] = [];
  vi.stubGlobal(
    'PerformanceObserver',
    class {
      constructor(callback: Callback) {
        observers.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  return (name: string) => {
    for (const observer of observers) observer({ getEntriesByName: (asked) => (asked === name ? [{}] : []) });
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('resolves when the browser reports the first contentful paint, not at first paint of nothing', async () => {
    vi.useFakeTimers();
    const report = fakePaintTiming();
    let painted = false;
    void afterFirstPaint(1000).then(() => (painted = true));
    report('first-paint');
    await Promise.resolve();
    expect(painted).toBe(false);
    report('first-contentful-paint');
    await vi.waitFor(() => expect(painted).toBe(true));
  });

  it('resolves after the fallback where no paint is ever reported (a background tab)', async () => {
    vi.useFakeTimers();
    fakePaintTiming();
    let painted = false;
    void afterFirstPaint(1000).then(() => (painted = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(painted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(painted).toBe(true);
  });
});

describe('afterFirstCommit', () => {
  it('waits for React to have committed the page, even when the HTML has long been painted', async () => {
    vi.useFakeTimers();
    const report = fakePaintTiming();
    let commit = () => {};
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let ready = false;
    void afterFirstCommit(committed, 1000).then(() => (ready = true));
    report('first-contentful-paint');
    await vi.advanceTimersByTimeAsync(5000);
    expect(ready).toBe(false);
    commit();
    // The browser hands a new observer the paint it reported before (buffered); the fake, once it observes.
    await vi.advanceTimersByTimeAsync(0);
    report('first-contentful-paint');
    await vi.waitFor(() => expect(ready).toBe(true));
  });
});

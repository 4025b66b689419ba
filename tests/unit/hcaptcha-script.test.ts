import { describe, expect, it } from 'vitest';
import { HCAPTCHA_API, loadHcaptcha } from '../../src/services/faucet/hcaptcha-script.ts';

// hCaptcha's script for a hosted build's human check: one <script> for https://js.hcaptcha.com/1/api.js
// with explicit rendering and an onload callback (https://docs.hcaptcha.com/configuration), ready
// when hCaptcha calls it back; a failed load is given up and tried again on the next claim.

type FakeScript = {
  src: string;
  async: boolean;
  onerror: (() => void) | null;
  removed: boolean;
  remove(): void;
};

function host() {
  const scripts: FakeScript[] = [];
  const window: Record<string, unknown> = {
    document: {
      createElement: () => {
        const script: FakeScript = {
          src: '',
          async: false,
          onerror: null,
          removed: false,
          remove: () => void (script.removed = true),
        };
        return script;
      },
      head: { appendChild: (script: FakeScript) => scripts.push(script) },
    },
  };
  return { window, scripts };
}

const load = (window: Record<string, unknown>) => loadHcaptcha(window as Parameters<typeof loadHcaptcha>[0]);

describe('loading hCaptcha’s script', () => {
  it('adds one script for explicit rendering, ready once hCaptcha calls its onload back', async () => {
    const { window, scripts } = host();
    let ready = false;
    const first = load(window).then(() => (ready = true));
    const second = load(window);
    expect(scripts).toHaveLength(1);
    const url = new URL(scripts[0]?.src ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(HCAPTCHA_API);
    expect(url.searchParams.get('render')).toBe('explicit');
    expect(url.searchParams.get('recaptchacompat')).toBe('off');
    const onload = url.searchParams.get('onload') ?? '';
    await Promise.resolve();
    expect(ready).toBe(false);
    (window[onload] as () => void)();
    await Promise.all([first, second]);
    expect(ready).toBe(true);
  });

  it('loads nothing when hCaptcha is already on the page', async () => {
    const { window, scripts } = host();
    window['hcaptcha'] = {};
    await load(window);
    expect(scripts).toHaveLength(0);
  });

  it('rejects when the script cannot load, removes it, and tries again on the next call', async () => {
    const { window, scripts } = host();
    const failed = load(window);
    scripts[0]?.onerror?.();
    await expect(failed).rejects.toThrow('hCaptcha could not be loaded');
    expect(scripts[0]?.removed).toBe(true);
    void load(window).catch(() => undefined);
    expect(scripts).toHaveLength(2);
  });
});

// hCaptcha's JavaScript API for the faucet's human check on a hosted build, loaded on the first
// claim and only then: https://js.hcaptcha.com/1/api.js with `render=explicit` (no widget appears
// by itself) and `onload=<callback>`, called once the API is ready (https://docs.hcaptcha.com/configuration).
// `recaptchacompat=off` keeps it from installing window.grecaptcha. The page's
// Content-Security-Policy allows hCaptcha's sources on such a build
// (scripts/lib/content-security-policy.ts hcaptchaSources).

export const HCAPTCHA_API = 'https://js.hcaptcha.com/1/api.js';
const ONLOAD = 'ddexHcaptchaLoaded';

type Host = {
  document: Pick<Document, 'createElement' | 'head'>;
} & Record<string, unknown>;

/** The one load under way or done, per page. */
const loads = new WeakMap<Host, Promise<void>>();

/** Resolves once `window.hcaptcha` is ready; a failed load rejects, and the next call tries again. */
export function loadHcaptcha(host: Host = window as unknown as Host): Promise<void> {
  if (host['hcaptcha']) return Promise.resolve();
  const started = loads.get(host);
  if (started) return started;
  const loading = new Promise<void>((resolve, reject) => {
    host[ONLOAD] = () => resolve();
    const script = host.document.createElement('script');
    script.src = `${HCAPTCHA_API}?render=explicit&onload=${ONLOAD}&recaptchacompat=off`;
    script.async = true;
    script.onerror = () => {
      script.remove();
      reject(new Error('hCaptcha could not be loaded'));
    };
    host.document.head.appendChild(script);
  }).catch((error: unknown) => {
    loads.delete(host);
    throw error;
  });
  loads.set(host, loading);
  return loading;
}

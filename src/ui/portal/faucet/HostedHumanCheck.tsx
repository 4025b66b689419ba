import { useEffect, useRef } from 'react';
import type { HumanCheckProps } from './human-check-props.ts';

// hCaptcha's own widget, rendered explicitly into this element once its script has loaded (the
// faucet machine's `loadHumanCheck` actor loads it: src/app/faucet.ts). Its callbacks become the
// faucet machine's events: the response token, or an error (the widget then stays to be tried
// again). https://docs.hcaptcha.com/configuration lists render()'s options.

type Hcaptcha = {
  render(
    container: HTMLElement,
    options: { sitekey: string; callback(token: string): void; 'error-callback'(): void },
  ): string;
  remove(id: string): void;
};

export default function HostedHumanCheck({ widget, faucet }: HumanCheckProps) {
  const container = useRef<HTMLDivElement>(null);
  const sitekey = widget.kind === 'hosted' ? widget.sitekey : null;

  useEffect(() => {
    const api = (window as unknown as { hcaptcha?: Hcaptcha }).hcaptcha;
    const element = container.current;
    if (!api || !element || !sitekey) return;
    const id = api.render(element, {
      sitekey,
      callback: (token) => faucet.send({ type: 'faucet.humanChecked', token }),
      'error-callback': () => faucet.send({ type: 'faucet.humanCheckError' }),
    });
    return () => api.remove(id);
  }, [faucet, sitekey]);

  return <div ref={container} />;
}

import type { Browser } from 'playwright-core';
import { sessionStorageKey, signUpByApi, storedSession } from '../../tests/support/e2e/session.ts';
import { serveCompressed } from './compressed-server.ts';
import { lighthousePages, type LighthousePages } from './lighthouse.ts';
import { phoneFigures } from './phone.ts';
import type { PhoneMeasured } from './phone-goals.ts';
import type { BenchStack } from './setup.ts';

// The phone's figures of `npm run bench` (and of `npm run bench:phone`, which takes nothing else):
// both builds served gzip-compressed as a host serves them (bench/lib/compressed-server.ts), a user
// signed up through the gateway whose session the signed-in visits store, then the Playwright
// figures (bench/lib/phone.ts) and the Lighthouse rounds (bench/lib/lighthouse.ts).

export type PhoneRun = {
  measured: PhoneMeasured;
  /** Every run, for the log. */
  lines: string[];
  /** What Lighthouse points at on each page (its run of median performance), and the largest layout shifts. */
  notes: Record<keyof LighthousePages, string[]>;
  largestShifts: { signedIn: string; phone: string };
};

export async function measurePhone(options: {
  stack: BenchStack;
  browser: Browser;
  runs: number;
  lighthouseRuns: number;
  step: (text: string) => void;
}): Promise<PhoneRun> {
  const { stack, browser, runs, lighthouseRuns, step } = options;
  const portal = await serveCompressed(stack.portalDir);
  const bare = await serveCompressed(stack.bareDir);
  try {
    // Signed up now, so its session is fresh for every signed-in visit that follows.
    const user = await signUpByApi(stack.gateway, 'bench-phone');
    const session = {
      origin: portal.url,
      // The portal's client is made for the gateway it was built with.
      key: sessionStorageKey(stack.gateway.url),
      value: storedSession(user.session),
    };
    step(`phone: ${runs} cold visits each: signed-in layout shift, 360 px layout shift, throttled tap`);
    const phone = await phoneFigures({ browser, portalUrl: portal.url, wallet: stack.wallet, session, runs });
    step(`lighthouse: ${lighthouseRuns} rounds of visitor screen, bare page, signed-in user, Trading tab`);
    const lighthouse = await lighthousePages({
      portalUrl: portal.url,
      bareUrl: bare.url,
      session,
      runs: lighthouseRuns,
      log: step,
    });
    return {
      measured: {
        lighthouse: { runs: lighthouseRuns, ...lighthouse.pages },
        phoneRuns: runs,
        clsSignedIn: phone.clsSignedIn,
        clsPhone: phone.clsPhone,
        phoneTap: phone.tap,
        phoneTapFromEnabled: phone.tapFromEnabled,
      },
      lines: phone.lines,
      notes: lighthouse.notes,
      largestShifts: phone.largestShifts,
    };
  } finally {
    await portal.close();
    await bare.close();
  }
}

/** The run's phone notes as lines of text, for the terminal and docs/benchmarks.md alike. */
export function phoneNotes(run: PhoneRun): string[] {
  const pages: [keyof LighthousePages, string][] = [
    ['visitor', 'visitor screen'],
    ['bare', 'bare page'],
    ['signedIn', 'signed-in user'],
    ['trading', 'DEX Trading tab'],
  ];
  return [
    ...pages.map(
      ([page, name]) =>
        `Lighthouse, ${name} (the run of median performance): ${run.notes[page].join('; ') || 'nothing to say'}.`,
    ),
    `Largest layout shifts of the worst signed-in visit: ${run.largestShifts.signedIn}.`,
    `Largest layout shifts of the worst 360 px visit: ${run.largestShifts.phone}.`,
  ];
}

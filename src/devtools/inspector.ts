import type { AnyEventObject, InspectionEvent, MachineContext, Observer } from 'xstate';

// The `?inspect` query flag: streams the portal's actor system to Stately's
// browser inspector (@statelyai/inspect's createBrowserInspector).
//
// That inspector is ONLINE ONLY: it opens https://stately.ai/inspect in a new
// window (allow the pop-up) and posts every inspection event to it, so it
// needs stately.ai to be reachable and it never runs in the tests (the e2e
// browser blocks every host but 127.0.0.1; nothing here runs without the
// flag). The offline alternatives are the developer panel (`?devtools`) and
// the Mermaid diagrams in docs/.
//
// This module and the SDK are loaded with dynamic imports only when a flag asks for them
// (panel/gate.ts reads the flags), so neither is part of the entry bundle. The portal starts at
// once; the events it produces while the SDK loads are buffered and handed over in order.

/** What XState's `inspect` option accepts. */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

function call(inspector: Inspect, event: InspectionEvent): void {
  if (typeof inspector === 'function') inspector(event);
  else inspector.next?.(event);
}

/**
 * One `inspect` for createActor out of several (the journal's, the browser inspector's); absent ones are
 * skipped. A failing inspector is reported and does not keep the event from the others or the portal.
 */
export function combineInspectors(
  ...inspectors: (Inspect | null | undefined | false)[]
): ((event: InspectionEvent) => void) | undefined {
  const present = inspectors.filter((inspector): inspector is Inspect => Boolean(inspector));
  if (present.length === 0) return undefined;
  return (event) => {
    for (const inspector of present) {
      try {
        call(inspector, event);
      } catch (error) {
        console.error('[inspect] an inspector failed:', error);
      }
    }
  };
}

/**
 * An inspector that is usable now while the real one loads: events are buffered (up to `limit`, oldest
 * dropped) and replayed in order once `load` resolves; if it fails, the buffer is dropped and reported.
 */
export function deferredInspector(
  load: () => Promise<Inspect>,
  limit = 5000,
): { inspect: (event: InspectionEvent) => void; ready: Promise<void> } {
  let target: Inspect | null = null;
  let failed = false;
  const buffer: InspectionEvent[] = [];
  const ready = load().then(
    (loaded) => {
      target = loaded;
      for (const event of buffer.splice(0)) call(loaded, event);
    },
    (error: unknown) => {
      failed = true;
      buffer.length = 0;
      console.error('[inspect] the inspector could not be loaded:', error);
    },
  );
  return {
    inspect: (event) => {
      if (target) call(target, event);
      else if (!failed) {
        buffer.push(event);
        if (buffer.length > limit) buffer.shift();
      }
    },
    ready,
  };
}

/**
 * An inspector loaded only once `consent` says yes; on no, `load` never runs and every event,
 * buffered or later, goes nowhere.
 */
export function consentedInspector(
  consent: () => Promise<boolean>,
  load: () => Promise<Inspect>,
): { inspect: (event: InspectionEvent) => void; ready: Promise<void> } {
  const nowhere: Inspect = () => undefined;
  return deferredInspector(async () => ((await consent()) ? load() : nowhere));
}

/**
 * Stately's browser inspector, loaded on demand (see the note at the top: it needs stately.ai).
 * `consent` is asked first: a production build asks the person, since anybody can send a link
 * with `?inspect` (main.tsx); a development build streams at once.
 */
export function browserInspector(consent: () => Promise<boolean> = async () => true): {
  inspect: (event: InspectionEvent) => void;
  ready: Promise<void>;
} {
  return consentedInspector(consent, async () => {
    // The redaction loads with the SDK: without the flag neither is part of the first download.
    const [{ createBrowserInspector }, { redact }] = await Promise.all([
      import('@statelyai/inspect'),
      import('./redact.ts'),
    ]);
    return createBrowserInspector({
      // Nothing the journal would not hold leaves for stately.ai: the journal's redaction, on events and contexts.
      sanitizeEvent: (event) => redact(event) as AnyEventObject,
      sanitizeContext: (context) => redact(context) as MachineContext,
    }).inspect;
  });
}

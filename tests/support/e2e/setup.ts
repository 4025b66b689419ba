import { afterAll } from 'vitest';
import { closeContexts } from './browser.ts';

// Runs in every e2e test file. The files of a worker share its Chromium (the e2e project runs
// without isolation, vitest.config.ts): what a file left open goes with it.
afterAll(closeContexts);

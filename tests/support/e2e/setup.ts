import { afterAll } from 'vitest';
import { closeBrowser } from './browser.ts';

// Runs in every e2e test file: the file's Chromium goes with it.
afterAll(closeBrowser);

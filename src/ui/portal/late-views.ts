// The views that load once the page has (late-views-loader.ts), in one chunk.
export { Balances } from './Balances.tsx';
export { SendForm } from './SendForm.tsx';
export { WebhookDemo } from './WebhookDemo.tsx';
export { AccountLine } from './AccountLine.tsx';

import { amountProblem, recipientProblem, type TransferFieldProblem } from '../../domain/token.ts';
import type { SendEvent } from './send-events.ts';

// What the send machine's guards ask of a submit before anything is signed
// (docs/product.md#send-form-order); pure functions of the event, kept beside the machine so its
// file holds the chart.

/** A press of 'Send' (with the private key) or of 'Send with wallet'. */
export type Submit = Extract<SendEvent, { type: 'send.submit' | 'send.submitWithWallet' }>;

export const isSubmit = (event: SendEvent): event is Submit =>
  event.type === 'send.submit' || event.type === 'send.submitWithWallet';

/** A recipient or an amount left blank: 'Missing Information', before the fields are read. */
export const missingInformation = (submit: Submit): boolean =>
  submit.recipient.trim() === '' || submit.amount.trim() === '';

/** The first field refused before anything is signed; the wallet path also checks the balance shown. */
export function fieldProblem(event: SendEvent): TransferFieldProblem | null {
  if (!isSubmit(event)) return null;
  const balance = event.type === 'send.submitWithWallet' ? event.balance : null;
  return recipientProblem(event.recipient) ?? amountProblem(event.amount, balance);
}

/** Addresses compare without their checksum's case; a missing one equals only another missing one. */
export const sameAddress = (a: string | null, b: string | null): boolean =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

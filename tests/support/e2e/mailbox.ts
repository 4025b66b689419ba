import { vi } from 'vitest';
import { readMailbox, type MailboxMessage } from '../../../stack/mail/mailbox.ts';
import { gatewayFor, type AppVariant } from './context.ts';

// The mails the project sent, read from the local mailbox the e2e stack runs (both gateways send
// to it over SMTP), as a person reads their inbox.

export type { MailboxMessage };

export function mailedTo(variant: AppVariant, email: string): Promise<MailboxMessage[]> {
  return readMailbox(gatewayFor(variant).mailboxUrl, email);
}

/**
 * The first link in the latest mail to `email` whose subject matches, waiting up to `timeoutMs`
 * for it to arrive. It is returned as mailed, so a link pointing anywhere else fails the test.
 */
export function linkMailedTo(
  variant: AppVariant,
  email: string,
  subject: RegExp,
  link: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  return vi.waitFor(
    async () => {
      const message = (await mailedTo(variant, email)).filter((mail) => subject.test(mail.subject)).at(-1);
      const found = link.exec(message?.text || message?.html || '')?.[0];
      if (!found) throw new Error(`no mail matching ${String(subject)} with a link was sent to ${email}`);
      return new URL(found.replace(/&amp;/g, '&').replace(/["'<>].*$/, '')).toString();
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

/** The link of the latest confirmation email to `email` (it verifies at the gateway, then opens the app). */
export function confirmationLink(variant: AppVariant, email: string, timeoutMs = 10_000): Promise<string> {
  return linkMailedTo(variant, email, /confirm/i, /https?:\/\/\S+verify\S+/, timeoutMs);
}

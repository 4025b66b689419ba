import { vi } from 'vitest';
import { gatewayFor, type AppVariant } from './context.ts';

// The auth emails a variant's gateway sent (it keeps them in memory instead of
// sending them), read through the global setup's mailbox server.

export type MailedMessage = { to: string; subject: string; text?: string; html?: string; sentAt: string };

export async function mailedTo(variant: AppVariant, email: string): Promise<MailedMessage[]> {
  const { mailboxUrl } = gatewayFor(variant);
  const response = await fetch(`${mailboxUrl}/${encodeURIComponent(email.toLowerCase())}`);
  if (!response.ok) throw new Error(`the mailbox answered HTTP ${response.status}`);
  return (await response.json()) as MailedMessage[];
}

/**
 * The link of the latest confirmation email to `email`, waiting up to `timeoutMs` for it to arrive.
 * Opening it in the page verifies the address at the gateway, which redirects to the app with a
 * session. The link is returned as mailed, so a link pointing anywhere else fails the test.
 */
export function confirmationLink(variant: AppVariant, email: string, timeoutMs = 10_000): Promise<string> {
  return vi.waitFor(
    async () => {
      const message = (await mailedTo(variant, email)).at(-1);
      const link = /https?:\/\/\S+verify\S+/.exec(message?.text ?? message?.html ?? '')?.[0];
      if (!link) throw new Error(`no confirmation link was mailed to ${email}`);
      return new URL(link.replace(/&amp;/g, '&').replace(/["'<>].*$/, '')).toString();
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

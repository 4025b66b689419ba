import { portalOrigin, unsubscribeLink } from '../_shared/portal.ts';
import type { OutgoingMail } from '../_shared/smtp.ts';
import type { AlertKind } from '../_shared/unsubscribe-token.ts';

// One email alert as it is sent: the notification's title as the subject, its message as the
// body, then the portal's line and the link that turns this kind of email off. The link opens the
// portal, which asks before it calls email-unsubscribe; the List-Unsubscribe headers (RFC 2369,
// RFC 8058) let a mail client offer the same in one click, straight to the function.

export type QueuedAlert = {
  /** The outbox row's id: the Message-ID is made of it. */
  id: string;
  kind: AlertKind;
  recipient: string;
  subject: string;
  body: string;
};

export type AlertMailSettings = {
  from: { address: string; name: string };
  /** The portal's origin (the first of SITE_URL's). */
  siteUrl: string;
  /** The project's URL (SUPABASE_URL), where email-unsubscribe answers. */
  supabaseUrl: string;
};

const KIND_WORDS: Record<AlertKind, string> = {
  transfers: 'incoming transfers',
  bots: 'your trading bots',
};

/** email-unsubscribe's one-click address (RFC 8058), for the List-Unsubscribe header. */
export function oneClickUrl(supabaseUrl: string, token: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/email-unsubscribe?token=${encodeURIComponent(token)}`;
}

/** A Message-ID of the outbox row: every attempt at one mail carries the same. */
export function messageIdOf(id: string, siteUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(portalOrigin(siteUrl)).hostname || host;
  } catch {
    // A malformed SITE_URL still sends; only the id's right-hand side is plainer.
  }
  return `<email-alert.${id}@${host}>`;
}

export function alertMail(alert: QueuedAlert, token: string, settings: AlertMailSettings): OutgoingMail {
  const portal = portalOrigin(settings.siteUrl);
  const text = [
    alert.body,
    '',
    '--',
    `DDEX Token Portal: ${portal}`,
    `You get this email because you turned on email for ${KIND_WORDS[alert.kind]}. ` +
      `To turn these emails off, open: ${unsubscribeLink(settings.siteUrl, token)}`,
    '',
  ].join('\n');
  return {
    from: settings.from,
    to: alert.recipient,
    subject: alert.subject,
    text,
    messageId: messageIdOf(alert.id, settings.siteUrl),
    headers: {
      'List-Unsubscribe': `<${oneClickUrl(settings.supabaseUrl, token)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

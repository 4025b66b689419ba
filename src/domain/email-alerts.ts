import type { Json } from './database.types.ts';

// Email alerts (docs/product.md#email-alerts): which notifications a user also wants by email. They
// live in the profile's `notification_preferences` as `{ "email": { "transfers": bool, "bots": bool } }`;
// a missing key is off, so the spec's default (an empty object) mails nothing. In the portal every
// notification appears whatever these say.

/** The kinds of notification that can also be mailed: incoming transfers and bot firings. */
export const EMAIL_ALERT_KINDS = ['transfers', 'bots'] as const;
export type EmailAlertKind = (typeof EMAIL_ALERT_KINDS)[number];

export type EmailAlerts = Record<EmailAlertKind, boolean>;

export const NO_EMAIL_ALERTS: EmailAlerts = { transfers: false, bots: false };

const isRecord = (value: unknown): value is Record<string, Json | undefined> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isEmailAlertKind(value: unknown): value is EmailAlertKind {
  return (EMAIL_ALERT_KINDS as readonly unknown[]).includes(value);
}

/** What a profile's `notification_preferences` says about email; anything unreadable is off. */
export function emailAlertsOf(preferences: unknown): EmailAlerts {
  const email = isRecord(preferences) ? preferences['email'] : null;
  if (!isRecord(email)) return NO_EMAIL_ALERTS;
  return { transfers: email['transfers'] === true, bots: email['bots'] === true };
}

/**
 * The kind an emailed unsubscribe token names, read for the page's words only: the token is checked
 * by the server (email-unsubscribe), which alone can tell a real one. Null when it names none.
 */
export function unsubscribeKindOf(token: string): EmailAlertKind | null {
  const [payload = ''] = token.split('.');
  try {
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    const kind = isRecord(json) ? json['k'] : null;
    return isEmailAlertKind(kind) ? kind : null;
  } catch {
    return null;
  }
}

// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- nodemailer has no types; tsc reads these wherever this module is imported from
/// <reference path="./nodemailer.d.ts" />
import nodemailer from 'nodemailer';

// Sending mail over SMTP, as the project's SMTP settings say (SMTP_HOST, SMTP_PORT, SMTP_USER,
// SMTP_PASS: config.toml's [auth.email.smtp] fields), with nodemailer, which runs under Deno
// (`npm:nodemailer`, with nothing but --allow-net) and Node alike. Hosted Edge Functions may not
// open connections to ports 25 and 587, so a hosted project sends on 465, implicit TLS
// (docs/deploy.md#email-alerts); any other port upgrades with STARTTLS, and off this machine
// refuses to go on without it, so the password never crosses the network in the clear.

export type SmtpSettings = {
  host: string;
  port: number;
  /** Both or neither: the server's login. */
  user: string | null;
  pass: string | null;
  /** The name the client greets the server with (EHLO): the portal's host, not this machine's. */
  clientName: string;
};

export type OutgoingMail = {
  from: { address: string; name: string };
  to: string;
  subject: string;
  text: string;
  /** `<…@…>`: the same for every attempt at one mail, so a receiver can fold a repeat. */
  messageId: string;
  headers: Record<string, string>;
};

/**
 * Hands one mail to the server; rejects unless the server accepted it for its recipient, with a
 * RecipientRefused when the server refused the recipient for good.
 */
export type Mailer = { send(mail: OutgoingMail): Promise<void> };

/**
 * The server answered the recipient (RCPT TO) with a 5xx reply, a permanent one (RFC 5321 §4.2.1):
 * no mailbox there, or never for this sender. Sending the same mail again cannot change that,
 * unlike a 4xx, a lost connection or a refused login, which are worth another try.
 */
export class RecipientRefused extends Error {
  override name = 'RecipientRefused';
}

/** Whether nodemailer's error is the server's permanent refusal of the (one) recipient. */
function refusedForGood(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (
    code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600
  );
}

/**
 * A server that does not answer at all. These are idle timeouts: a server that answers slowly, a
 * little at a time, trips none of them, so email-alerts bounds a whole send itself
 * (SEND_DEADLINE_MS, well inside its claim's lease).
 */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export function createSmtpMailer(settings: SmtpSettings): Mailer {
  if (!settings.host) throw new Error('SMTP needs a host');
  if (!Number.isInteger(settings.port) || settings.port < 1 || settings.port > 65535) {
    throw new Error('SMTP needs a port from 1 to 65535');
  }
  const implicitTls = settings.port === 465;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: implicitTls,
    requireTLS: !implicitTls && !LOCAL_HOSTS.has(settings.host),
    ...(settings.user && settings.pass ? { auth: { user: settings.user, pass: settings.pass } } : {}),
    name: settings.clientName,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // Mails are made of text here; nothing in one may make the client read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(mail) {
      let info;
      try {
        info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          messageId: mail.messageId,
          headers: mail.headers,
        });
      } catch (error) {
        if (!refusedForGood(error)) throw error;
        // nodemailer's message ends with the server's reply, which says why.
        throw new RecipientRefused(
          `the mail server refused the recipient for good: ${(error as Error).message}`,
        );
      }
      if (info.rejected.length > 0)
        throw new Error(`the mail server refused the recipient (${info.response})`);
    },
  };
}

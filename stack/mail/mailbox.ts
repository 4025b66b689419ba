import { MailDev } from 'maildev';

// The local mailbox: an SMTP server that keeps every mail it is given and a page to read them,
// as `supabase start` runs one beside Auth. Auth's mails and the email alerts reach it over SMTP,
// exactly as a hosted project's reach its SMTP provider, so what a test reads here is what a
// person would receive. MailDev (npm `maildev`): maintained, runs in this process with no binary
// to download, binds both servers to 127.0.0.1 on any port (0 picks one), and serves its inbox
// page and a REST API (`GET /api/email`) from one HTTP port.

export type MailboxOptions = {
  /** SMTP port; 0 picks a free one. */
  smtpPort: number;
  /** The inbox page's port; 0 picks a free one. */
  webPort: number;
  /** Where mails are kept across restarts; in memory (a temporary folder) when absent. */
  mailDir?: string;
};

/** One mail as the mailbox received it. */
export type MailboxMessage = {
  id: string;
  subject: string;
  to: string[];
  from: string[];
  text: string;
  html: string;
  headers: Record<string, string | string[]>;
  receivedAt: string;
};

export type Mailbox = {
  /** Where to send: what a project's SMTP settings name. */
  smtp: { host: string; port: number };
  /** The inbox page. */
  url: string;
  /** Every mail received for `address` (any letter case), oldest first. */
  messagesTo(address: string): Promise<MailboxMessage[]>;
  stop(): Promise<void>;
};

type MaildevEmail = {
  id: string;
  subject?: string;
  time: string;
  to?: { address: string }[];
  from?: { address: string }[];
  text?: string;
  html?: string;
  headers?: Record<string, string | string[]>;
};

const HOST = '127.0.0.1';

export async function startMailbox(options: MailboxOptions): Promise<Mailbox> {
  const maildev = new MailDev({
    smtp: options.smtpPort,
    web: options.webPort,
    ip: HOST,
    webIp: HOST,
    silent: true,
    ...(options.mailDir ? { mailDirectory: options.mailDir } : {}),
  });
  const servers = await maildev.start();
  const smtpPort = servers.smtp.getAddress().port;
  const webPort = servers.api?.getAddress()?.port;
  if (webPort === undefined) {
    await maildev.stop();
    throw new Error('the mailbox started without its page');
  }
  const url = `http://${HOST}:${webPort}`;
  return {
    smtp: { host: HOST, port: smtpPort },
    url,
    messagesTo: (address) => readMailbox(url, address),
    stop: () => maildev.stop(),
  };
}

/** Every mail the mailbox at `url` (its page) received for `address`, oldest first. */
export async function readMailbox(url: string, address: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${url}/api/email`);
  if (!response.ok) throw new Error(`the mailbox answered HTTP ${response.status}`);
  const wanted = address.toLowerCase();
  return ((await response.json()) as MaildevEmail[])
    .filter((email) => (email.to ?? []).some((to) => to.address.toLowerCase() === wanted))
    .map(toMessage);
}

function toMessage(email: MaildevEmail): MailboxMessage {
  return {
    id: email.id,
    subject: email.subject ?? '',
    to: (email.to ?? []).map((to) => to.address),
    from: (email.from ?? []).map((from) => from.address),
    text: email.text ?? '',
    html: email.html ?? '',
    headers: email.headers ?? {},
    receivedAt: email.time,
  };
}

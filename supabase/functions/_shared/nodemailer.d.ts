// The part of nodemailer (npm, no bundled types) that _shared/smtp.ts uses, for the Node type
// check (tsc); Deno checks the functions against the package itself.
declare module 'nodemailer' {
  type Address = { name: string; address: string };
  type TransportOptions = {
    host: string;
    port: number;
    secure: boolean;
    requireTLS: boolean;
    auth?: { user: string; pass: string };
    name: string;
    connectionTimeout: number;
    greetingTimeout: number;
    socketTimeout: number;
    disableFileAccess: boolean;
    disableUrlAccess: boolean;
  };
  type MailOptions = {
    from: Address;
    to: string;
    subject: string;
    text: string;
    messageId: string;
    headers: Record<string, string>;
  };
  type SentInfo = { accepted: string[]; rejected: string[]; response: string; messageId: string };
  type Transporter = { sendMail(mail: MailOptions): Promise<SentInfo> };
  const nodemailer: { createTransport(options: TransportOptions): Transporter };
  export default nodemailer;
}

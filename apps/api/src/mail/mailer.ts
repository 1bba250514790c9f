import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Files sent along (the ELD output file, a report's PDF and CSV); the outbox keeps their content,
   * binary files as base64 (`encoding: 'base64'`).
   */
  attachments?: Array<{ filename: string; content: string; contentType: string; encoding?: 'base64' }>;
  /** Extra header fields (a customer notice's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /**
   * A message built elsewhere (the S/MIME e-mail of an ELD output file to FMCSA), sent as it is: `raw`
   * is the whole RFC 5322 message, `envelope` the SMTP sender and recipient. The outbox keeps it as
   * `raw` beside its recipient and subject.
   */
  sendRaw(envelope: { from: string; to: string }, raw: string): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as JSON under DATA_DIR/outbox (and
 * its recipient, subject and file name logged), so the reset-password flow works out of the box
 * (and tests can read it).
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; log: FastifyBaseLogger }): Mailer {
  const smtpUrl = opts.smtpUrl;
  if (smtpUrl) {
    // nodemailer is imported with the first message, not at start: 0.7 MB of module sources an idle
    // server kept for mail it may not send for hours (decision 0161).
    let transport: Promise<Transporter> | null = null;
    return {
      async send(m) {
        transport ??= import('nodemailer').then((n) => n.default.createTransport(smtpUrl));
        await (await transport).sendMail({ from: opts.from, ...m });
      },
      async sendRaw(envelope, raw) {
        transport ??= import('nodemailer').then((n) => n.default.createTransport(smtpUrl));
        await (await transport).sendMail({ envelope: { from: envelope.from, to: [envelope.to] }, raw });
      },
    };
  }
  // Two messages to one address in the same millisecond (a pass of load notices) keep both files.
  let written = 0;
  const write = async (entry: { to: string; subject: string; from: string; [field: string]: unknown }) => {
    await fs.mkdir(opts.outboxDir, { recursive: true });
    const createdAt = new Date().toISOString();
    const seq = String(++written % 1000).padStart(3, '0');
    const name = `${createdAt.replace(/[:.]/g, '-')}-${seq}-${entry.to.replace(/[^a-zA-Z0-9@.-]/g, '_')}.json`;
    await fs.writeFile(path.join(opts.outboxDir, name), JSON.stringify({ ...entry, createdAt }, null, 2));
    // Never the text: it holds set-password links, which are credentials.
    opts.log.info({ to: entry.to, subject: entry.subject, outbox: name }, 'e-mail written to the outbox');
  };
  return {
    async send(m) {
      await write({ ...m, from: opts.from });
    },
    async sendRaw(envelope, raw) {
      await write({ to: envelope.to, subject: subjectOf(raw), from: envelope.from, raw });
    },
  };
}

/** The Subject header of a raw message, unfolded (an encoded word stays encoded). */
function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  return (
    head
      .replace(/\r?\n[ \t]+/g, ' ')
      .match(/^Subject:[ \t]*(.*)$/im)?.[1]
      ?.trim() ?? ''
  );
}

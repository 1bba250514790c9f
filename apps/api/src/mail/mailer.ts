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
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
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
    };
  }
  return {
    async send(m) {
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const createdAt = new Date().toISOString();
      const name = `${createdAt.replace(/[:.]/g, '-')}-${m.to.replace(/[^a-zA-Z0-9@.-]/g, '_')}.json`;
      await fs.writeFile(path.join(opts.outboxDir, name), JSON.stringify({ ...m, from: opts.from, createdAt }, null, 2));
      // Never the text: it holds set-password links, which are credentials.
      opts.log.info({ to: m.to, subject: m.subject, outbox: name }, 'e-mail written to the outbox');
    },
  };
}

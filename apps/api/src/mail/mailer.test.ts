import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer } from './mailer.ts';

// Without SMTP_URL the mailer writes each message to the outbox as JSON (tests and the browser tests
// read it there); a raw message (the S/MIME e-mail to FMCSA) is kept whole as `raw`.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function outboxMailer() {
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-outbox-'));
  dirs.push(outboxDir);
  // The outbox logs one info line a message; nothing else of the logger is used.
  const log = { info: () => undefined } as unknown as FastifyBaseLogger;
  const mailer = createMailer({ from: 'fleet@test', outboxDir, log });
  const read = () => fs.readdirSync(outboxDir).map((f) => JSON.parse(fs.readFileSync(path.join(outboxDir, f), 'utf8')) as Record<string, unknown>);
  return { mailer, read };
}

describe('createMailer without SMTP', () => {
  it('writes a message as JSON, as before', async () => {
    const { mailer, read } = outboxMailer();
    await mailer.send({ to: 'a@test', subject: 'Hello', text: 'Body' });
    expect(read()).toEqual([{ to: 'a@test', subject: 'Hello', text: 'Body', from: 'fleet@test', createdAt: expect.any(String) }]);
  });

  it('writes a raw message with its envelope, its subject and the message itself', async () => {
    const { mailer, read } = outboxMailer();
    const raw = 'From: eld@fleet.example\r\nTo: fmcsa@example.gov\r\nSubject: TEST: ELD records\r\n - F.csv\r\nMIME-Version: 1.0\r\n\r\nSubject: not this\r\n';
    await mailer.sendRaw({ from: 'eld@fleet.example', to: 'fmcsa@example.gov' }, raw);
    expect(read()).toEqual([{ to: 'fmcsa@example.gov', from: 'eld@fleet.example', subject: 'TEST: ELD records - F.csv', raw, createdAt: expect.any(String) }]);
  });
});

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { WebhookPayload } from '@fleet/api-contract';
import { onServer, serverDatabase } from '../../test/helpers.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';
import { loadBody } from '../../test/webhook-fixtures.ts';

// The outbox survives kill -9 of the sender mid-delivery (issue 48, decision 0201): a real server
// process sends a delivery to a receiver that holds it unanswered, is killed with SIGKILL, and a new
// process on the same database sends it again once the lease has run out, with the same webhook-id,
// then everything behind it, in order per subscription. On the PostgreSQL server when the suite has
// one, else on the embedded database's data directory (the second process opens what the first left).

interface Got {
  sub: string;
  id: string;
  number: string;
  at: number;
}

let first: ServerProcess | undefined;
let second: ServerProcess | undefined;
let drop: () => Promise<void> = async () => undefined;
let dataDir: string | undefined;
const receiver = { server: null as http.Server | null };

afterAll(async () => {
  await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
  receiver.server?.closeAllConnections();
  receiver.server?.close();
  await drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('webhook deliveries survive kill -9 of the sending process', () => {
  it('the delivery in flight is sent again by the next process with the same webhook-id, and every event follows in order', async () => {
    // The receiver holds the first request it gets unanswered (the sender is then mid-delivery).
    const got: Got[] = [];
    let hold = true;
    let held: ((g: Got) => void) | null = null;
    const heldRequest = new Promise<Got>((resolve) => (held = resolve));
    receiver.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookPayload;
        const g = { sub: req.url!.slice(1), id: String(req.headers['webhook-id']), number: String((body.data as { number?: string }).number), at: Date.now() };
        if (hold) {
          hold = false;
          held!(g);
          return; // never answered: the process is killed while it waits
        }
        got.push(g);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.server!.listen(0, '127.0.0.1', r));
    const rxUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;

    const env: Record<string, string> = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_TIMEOUT_MS: '1000', SIMULATOR: '0', DEMO: '0' };
    if (onServer()) {
      const scratch = await serverDatabase();
      drop = scratch.drop;
      env.DATABASE_URL = scratch.url;
    } else {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-hooks-kill-'));
      env.DATA_DIR = dataDir;
    }
    first = await startServer({ env });
    const call = async (server: ServerProcess, method: string, url: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v1${url}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
    };
    const reg = await call(first, 'POST', '/auth/register', null, {
      firstname: 'Kim',
      lastname: 'Kill',
      organizationName: 'Kill Nine Carrier',
      email: `kill${Date.now()}@kill.test`,
      password: 'Str0ngPassword!',
    });
    expect(reg.status, JSON.stringify(reg.json)).toBe(200);
    const token = reg.json.accessToken as string;
    const orgId = (reg.json.user as { organization: { id: string } }).organization.id;
    for (const sub of ['a', 'b']) {
      const s = await call(first, 'POST', `/organizations/${orgId}/webhooks`, token, { url: `${rxUrl}/${sub}`, events: ['load.status_changed'] });
      expect(s.status, JSON.stringify(s.json)).toBe(201);
    }
    const numbers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const l = await call(first, 'POST', `/organizations/${orgId}/loads`, token, loadBody());
      expect(l.status, JSON.stringify(l.json)).toBe(201);
      numbers.push(l.json.number as string);
    }

    // Mid-delivery: the receiver holds a request; the process is killed before any answer.
    const inFlight = await heldRequest;
    const ended = await first.stop('SIGKILL');
    expect(ended.signal).toBe('SIGKILL');

    second = await startServer({ env });
    const deadline = Date.now() + 60_000;
    const firstSeen = (sub: string) => [...new Set(got.filter((g) => g.sub === sub).map((g) => g.number))];
    await vi
      .waitFor(() => expect([firstSeen('a').length, firstSeen('b').length]).toEqual([4, 4]), { timeout: deadline - Date.now(), interval: 200 })
      .catch(() => undefined);

    // Every event reached both subscriptions (at least once), each subscription's in commit order.
    expect(firstSeen('a')).toEqual(numbers);
    expect(firstSeen('b')).toEqual(numbers);
    // The attempt cut by the kill was made again, with the same webhook-id.
    const again = got.find((g) => g.sub === inFlight.sub && g.number === inFlight.number);
    expect(again?.id).toBe(inFlight.id);
    // ...and not before the killed process's lease ran out (3 timeouts + 5 s = 8 s after its claim):
    // no second sender while the first might still have been sending.
    expect(again!.at - inFlight.at).toBeGreaterThan(7000);
    const list = await call(second, 'GET', `/organizations/${orgId}/webhooks`, token);
    expect(list.status).toBe(200);
  }, 300_000);
});

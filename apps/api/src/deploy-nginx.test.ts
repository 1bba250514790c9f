import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, onServer, serverDatabase } from './test/helpers.ts';
import { freePort, signIn, startServer, type ServerProcess } from './test/server-process.ts';
import { openLiveStream } from './test/sse-client.ts';

// docs/deploy.md's nginx configuration, read from the guide itself (addresses, ports and
// certificate paths substituted), in front of two API instances on one PostgreSQL database.
// Runs in the PostgreSQL pass where nginx is installed (Debian: apt-get install nginx-light).

// A PostgreSQL server or the Citus coordinator (TEST_CITUS_URL: a pool database).
const serverUrl = onServer();
const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const guide = path.resolve(import.meta.dirname, '../../../docs/deploy.md');

let dir: string;
let one: ServerProcess;
let two: ServerProcess;
let proxy: ChildProcess;
let drop: () => Promise<void> = async () => undefined;
let https: string;
let http: string;
let osmand: string;

describe.skipIf(!serverUrl || !nginx)("the guide's nginx configuration (PostgreSQL pass, where nginx is installed)", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-nginx-'));
    fs.mkdirSync(path.join(dir, 'logs'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=fleet.example.com'],
      { stdio: 'ignore' },
    );
    const scratch = await serverDatabase();
    drop = scratch.drop;
    const env = {
      DATABASE_URL: scratch.url,
      DEMO: '1',
      SIMULATOR: '0',
      TRUST_PROXY: '1',
      NODE_ENV: 'production',
      JWT_SECRET: 'a-test-secret-of-at-least-32-characters!',
      PUBLIC_URL: 'https://fleet.example.com',
    };
    [one, two] = await Promise.all([startServer({ env }), startServer({ env })]);
    const [p80, p443, p5055] = [await freePort(), await freePort(), await freePort()];
    const conf = /```nginx\n([\s\S]*?)```/
      .exec(fs.readFileSync(guide, 'utf8'))![1]!
      .replaceAll('10.0.0.11:8080', `127.0.0.1:${one.port}`)
      .replaceAll('10.0.0.12:8080', `127.0.0.1:${two.port}`)
      .replaceAll('10.0.0.11:5055', `127.0.0.1:${one.osmandPort}`)
      .replaceAll('10.0.0.12:5055', `127.0.0.1:${two.osmandPort}`)
      .replace(/ {4}listen \[::\]:.*\n/g, '')
      .replace('listen 80;', `listen 127.0.0.1:${p80};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${p443} ssl http2;`)
      .replace('listen 5055;', `listen 127.0.0.1:${p5055};`)
      .replaceAll('/etc/letsencrypt/live/fleet.example.com/fullchain.pem', `${dir}/cert.pem`)
      .replaceAll('/etc/letsencrypt/live/fleet.example.com/privkey.pem', `${dir}/key.pem`)
      .replaceAll('/var/log/nginx/', `${dir}/logs/`);
    fs.writeFileSync(`${dir}/nginx.conf`, `error_log ${dir}/logs/error.log;\npid ${dir}/nginx.pid;\nevents {}\nhttp {\n${conf}\n}\n`);
    execFileSync(nginx!, ['-t', '-q', '-p', dir, '-c', `${dir}/nginx.conf`]);
    proxy = spawn(nginx!, ['-p', dir, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], { stdio: 'ignore' });
    [https, http, osmand] = [`https://127.0.0.1:${p443}`, `http://127.0.0.1:${p80}`, `http://127.0.0.1:${p5055}`];
    // The test's certificate is self-signed.
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    for (
      let i = 0;
      i < 50 &&
      !(await fetch(`${https}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
  });

  afterAll(async () => {
    proxy?.kill('SIGTERM');
    await Promise.all([one?.stop('SIGKILL'), two?.stop('SIGKILL')]);
    await drop();
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves over TLS with HSTS, redirects plain HTTP, streams the live map unbuffered and takes OsmAnd and batches', async () => {
    const ready = await fetch(`${https}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('strict-transport-security')).toContain('max-age');
    expect((await fetch(`${http}/map`, { redirect: 'manual' })).status).toBe(301);

    const admin = await signIn({ url: https }, DEMO.admin);
    const orgId = admin.user.organization!.id;
    const stream = await openLiveStream(`${https}/api/v1/organizations/${orgId}/assets/stream`, admin.accessToken);
    await stream.next((e) => e.event === 'snapshot');
    const latitude = Number((39 + Math.random()).toFixed(6));
    const sentAt = Date.now();
    expect((await fetch(`${osmand}/?id=demo-truck-01&lat=${latitude}&lon=-94.5&timestamp=${Math.floor(sentAt / 1000)}`)).status).toBe(200);
    // A buffering proxy would hold the event until its buffer filled or the stream ended.
    const event = await stream.next((e) => e.event === 'positions' && e.data.vehicles.some((v) => v.latitude === latitude));
    expect(event.at - sentAt).toBeLessThan(1000);
    stream.close();
    const batch = await fetch(`${https}/api/v1/ingest/positions`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-ingest-demo-truck-09', 'content-type': 'application/json' },
      body: JSON.stringify({ positions: [{ fixTime: new Date().toISOString(), latitude: 40, longitude: -90 }] }),
    });
    expect(batch.status).toBe(200);
    // A phone over TLS: its fixes all through one instance (hashed on its id), so neither instance's
    // followers read back fixes the other stored; the devices together spread over both.
    // Eleven: all on one instance by chance is 2 in 2,048 (the ring depends on the instances'
    // ports); an odd number, so that a round robin would send each phone to both in turn.
    const phones = [11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23].map((n) => `demo-truck-${n}`);
    for (let k = 0; k < 4; k++)
      for (const id of phones)
        expect((await fetch(`${https}/api/v1/ingest/osmand?id=${id}&lat=40.${k}&lon=-94.5&timestamp=${Math.floor(sentAt / 1000) + 10 + k}`)).status).toBe(200);
    const osmandLines = () =>
      fs
        .readFileSync(`${dir}/logs/fleetline.access.log`, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"GET /api/v1/ingest/osmand"'));
    // nginx writes a request's line after its answer has gone: the last one may be a moment behind.
    await expect.poll(() => osmandLines().length, { timeout: 5_000 }).toBe(phones.length * 4);
    const upstreams = osmandLines().map((l) => /" 200 \d+ [\d.]+ (\S+)/.exec(l)![1]!);
    for (let i = 0; i < phones.length; i++) expect(new Set(upstreams.filter((_, j) => j % phones.length === i)).size).toBe(1);
    expect(new Set(upstreams).size).toBe(2);
    // The stream's URL may carry an access token: the log format leaves query strings out.
    const log = fs.readFileSync(`${dir}/logs/fleetline.access.log`, 'utf8');
    expect(log).toContain('/assets/stream');
    expect(log).not.toContain('?');
  });

  it('keeps answering through the other instance while one stops (SIGTERM, not taken out first)', async () => {
    const admin = await signIn({ url: https }, DEMO.admin);
    const url = `${https}/api/v1/organizations/${admin.user.organization!.id}/assets?size=1`;
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop)
        statuses.push(
          await fetch(url, { headers: { authorization: `Bearer ${admin.accessToken}` } }).then(
            async (r) => (await r.arrayBuffer(), r.status),
            () => 0,
          ),
        );
    })();
    // Requests are flowing before the stop, and go on through the other instance after it.
    await vi.waitFor(() => expect(statuses.length).toBeGreaterThan(5), { timeout: 10_000 });
    expect(await one.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const atStop = statuses.length;
    await vi.waitFor(() => expect(statuses.length).toBeGreaterThan(atStop + 5), { timeout: 10_000 });
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseUnavailable, failureKind } from '../../db/sql/database-error.ts';
import { closeIdleWhileClosing } from '../../lib/close-idle.ts';
import { errorBody } from '../../plugins/errors.ts';
import { handleOsmand, type Ingest, type OsmandReply } from './pipeline/ingest.service.ts';

/**
 * The OsmAnd port (Traccar's 5055): GET, POST or PUT at any path, so a phone running Traccar
 * Client pointed at http://server:5055 just works. Shares the API's ingest pipeline (group commit).
 *
 * A bare `node:http` handler rather than a Fastify instance (docs/decisions/0056): a device
 * request needs no routing, hooks, schemas or logging, and at thousands of requests a second the
 * framework's per-request work was a large share of the CPU per position. The API keeps Fastify
 * for `/api/v1/ingest/osmand`; both paths call the same `handleOsmand`, so they answer alike.
 */
export class OsmandServer {
  readonly server: http.Server;
  private closing = false;

  constructor(
    private readonly ingest: Ingest,
    private readonly bodyLimit = 65_536,
  ) {
    this.server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => this.onRequest(req, res));
  }

  listen(opts: { port: number; host?: string }): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(opts.port, opts.host, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops accepting, lets in-flight requests finish (their fixes are committed), closes idle
   * connections, and ends each busy one after its answer (`Connection: close`): a device posting
   * back to back on a keep-alive connection would otherwise keep the server open for ever.
   */
  close(): Promise<void> {
    this.closing = true;
    return new Promise((resolve, reject) => {
      const stopClosingIdle = closeIdleWhileClosing(this.server);
      this.server.close((err) => {
        stopClosingIdle();
        if (err) reject(err);
        else resolve();
      });
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const method = req.method;
    if (method !== 'GET' && method !== 'POST' && method !== 'PUT') {
      this.send(res, { status: 405, error: { message: `Method ${method ?? ''} not allowed`, technicalMessage: 'The OsmAnd protocol uses GET, POST or PUT' } });
      req.resume();
      return;
    }
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const query = q >= 0 ? url.slice(q + 1) : '';
    const contentType = req.headers['content-type'];
    // Traccar Client's GET carries no body: answer without waiting for the request stream.
    const length = req.headers['content-length'];
    if (method === 'GET' && (length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
      this.answer(res, query, contentType, '');
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > this.bodyLimit) {
        tooLarge = true;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (tooLarge) {
        this.send(res, { status: 413, error: { message: 'Request body is too large', technicalMessage: `body over ${this.bodyLimit} bytes` } });
        return;
      }
      this.answer(res, query, contentType, Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => res.destroy());
  }

  private answer(res: http.ServerResponse, query: string, contentType: string | undefined, text: string): void {
    let body: unknown = text;
    if ((contentType ?? '').toLowerCase().startsWith('application/json')) {
      try {
        body = JSON.parse(text);
      } catch (err) {
        this.send(res, {
          status: 400,
          error: { message: 'The body is not valid JSON', technicalMessage: err instanceof Error ? err.message : 'invalid JSON' },
        });
        return;
      }
    }
    handleOsmand(this.ingest, { query, contentType, body }).then(
      (reply) => this.send(res, reply),
      // Nothing was acknowledged: the device keeps the fix and sends it again. The database
      // unavailable for a while (its commit gave up) is a 503 with Retry-After, as on the API's port.
      (err: unknown) => {
        const unavailable = databaseUnavailable(err) !== null || failureKind(err) === 'unavailable';
        this.ingest.health.serverError('osmand');
        this.ingest.logError(err, `osmand: a fix was not stored (${unavailable ? 503 : 500}; the device sends it again)`);
        if (unavailable) res.setHeader('retry-after', '5');
        this.send(
          res,
          unavailable
            ? { status: 503, error: { message: 'The database is not available right now', technicalMessage: 'Try again shortly' } }
            : { status: 500, error: { message: 'Internal error', technicalMessage: 'Internal error' } },
        );
      },
    );
  }

  private send(res: http.ServerResponse, reply: OsmandReply): void {
    // The device reconnects, to another instance behind the load balancer.
    if (this.closing) res.setHeader('connection', 'close');
    send(res, reply);
  }
}

function send(res: http.ServerResponse, reply: OsmandReply): void {
  if (!reply.error) {
    res.writeHead(reply.status, { 'content-length': '0' });
    res.end();
    return;
  }
  const text = JSON.stringify(errorBody(reply.status, reply.error.message, reply.error.technicalMessage));
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The OsmAnd port's server (not listening yet). */
export async function buildOsmandServer(ingest: Ingest, opts: { bodyLimit?: number } = {}): Promise<OsmandServer> {
  return new OsmandServer(ingest, opts.bodyLimit);
}

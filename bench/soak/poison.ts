// Poisoned fixes from the second organization (issue 43, items 2, 3 and 5): values a database column
// cannot hold, NUL characters, attributes nested 5,000 deep, device clocks years behind or hours
// ahead, and the 2013 requests of Traccar's own decoder tests. Each is sent `count` times at once
// (beside the soak's traffic), and resent twice when not acknowledged, as the device would keep doing.
// What the server should do: acknowledge each (refusing what it cannot store), and never let them fail
// another organization's positions.
import { ANSWER_TIMEOUT_MS, fetchFailure, type Target } from './device-link.ts';
import { inPool } from './api-client.ts';
import type { OtherOrg } from './fleet-setup.ts';

export interface PoisonResult {
  kind: string;
  protocol: 'osmand' | 'batch' | 'traccar';
  /** Final answer of each send after its resends: "200", "400", "500", "ECONNRESET"… with counts. */
  answers: Record<string, number>;
  /** The fixes' times, to find which were stored. */
  fixTimes: number[];
}

type Request = { url: string; init: RequestInit; fixTime: number };

const DAY = 86_400_000;

/** The JSON text of an object nested `depth` deep, { "a": { "a": … } } (JSON.stringify would overflow its stack on it). */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}{"leaf":true}${'}'.repeat(depth)}`;

interface Kind {
  kind: string;
  protocol: PoisonResult['protocol'];
  /** The i-th request; `now` is when the burst starts. */
  request(i: number, now: number): Request;
}

function kinds(target: Target, other: OtherOrg): Kind[] {
  const osmand = (query: Record<string, string>, fixTime: number): Request => ({
    url: `http://127.0.0.1:${target.osmandPort}/?${new URLSearchParams({ id: other.osmandId, lat: '35.2', lon: '-97.4', ...query }).toString()}`,
    init: {},
    fixTime,
  });
  const osmandAt = (fixTime: number, extra: Record<string, string> = {}) =>
    osmand({ timestamp: String(Math.floor(fixTime / 1000)), speed: '20', ...extra }, Math.floor(fixTime / 1000) * 1000);
  /** A batch of one position whose attributes are `attributesJson` (JSON text). */
  const batch = (attributesJson: string, fixTime: number): Request => ({
    url: `${target.apiUrl}/api/v1/ingest/positions`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other.batchToken}` },
      body: `{"positions":[{"fixTime":"${new Date(fixTime).toISOString()}","latitude":35.2,"longitude":-97.4,"speed":30,"attributes":${attributesJson}}]}`,
    },
    fixTime,
  });
  // Distinct recent fix times per kind, so no request is a duplicate of another.
  const recent = (k: number, i: number, now: number) => Math.floor((now - 20 * 60_000 - k * 100_000 - i * 1000) / 1000) * 1000;
  return [
    { kind: 'accuracy=1e308 (OsmAnd)', protocol: 'osmand', request: (i, now) => osmandAt(recent(0, i, now), { accuracy: '1e308' }) },
    { kind: 'speed=1e-320 (OsmAnd)', protocol: 'osmand', request: (i, now) => osmandAt(recent(1, i, now), { speed: '1e-320' }) },
    { kind: 'NUL in an attribute (OsmAnd)', protocol: 'osmand', request: (i, now) => osmandAt(recent(2, i, now), { driverNote: 'a\u0000b' }) },
    { kind: 'timestamp 2 years old (OsmAnd)', protocol: 'osmand', request: (i, now) => osmandAt(now - 730 * DAY - i * 1000) },
    { kind: 'timestamp 2 hours ahead (OsmAnd)', protocol: 'osmand', request: (i, now) => osmandAt(now + 2 * 3_600_000 + i * 1000) },
    {
      // OsmAndProtocolDecoderTest's request (2013-08-22), as Traccar's tests send it.
      kind: '2013 timestamp, Traccar decoder test (OsmAnd)',
      protocol: 'osmand',
      request: (i) =>
        osmand(
          { timestamp: String(1_377_177_267 + i), lat: '60.0', lon: '30.0', speed: '0.0', bearing: '0.0', altitude: '0', accuracy: '0.0', batt: '100.0' },
          (1_377_177_267 + i) * 1000,
        ),
    },
    {
      kind: '2013 fixTime (Traccar forwarding)',
      protocol: 'traccar',
      request: (i) => {
        const fixTime = Date.UTC(2013, 7, 22, 13, 14, 27) + i * 1000;
        const at = new Date(fixTime).toISOString();
        return {
          url: `${target.apiUrl}/api/v1/ingest/traccar`,
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: other.ingestToken },
            body: JSON.stringify({
              position: {
                protocol: 'gps103',
                deviceTime: at,
                fixTime: at,
                valid: true,
                latitude: 60,
                longitude: 30,
                altitude: 0,
                speed: 0,
                course: 0,
                attributes: {},
              },
              device: { uniqueId: other.traccarId },
            }),
          },
          fixTime,
        };
      },
    },
    { kind: 'attributes nested 5,000 deep (batch)', protocol: 'batch', request: (i, now) => batch(nestedJson(5000), recent(3, i, now)) },
    { kind: 'NUL in attributes (batch)', protocol: 'batch', request: (i, now) => batch(JSON.stringify({ note: 'a\u0000b' }), recent(4, i, now)) },
  ];
}

/** A batch answered 200 with the item refused counts as acknowledged (the gateway drops it). */
async function sendOnce(r: Request): Promise<string> {
  try {
    const res = await fetch(r.url, { ...r.init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    await res.arrayBuffer();
    return String(res.status);
  } catch (err) {
    return fetchFailure(err);
  }
}

/** The kinds' names, in the order sendPoison sends them. */
export const poisonKinds = (): string[] =>
  kinds({ apiUrl: '', osmandPort: 0, teltonikaPort: 0 }, { orgId: '', ingestToken: '', osmandId: '', batchToken: '', traccarId: '' }).map((k) => k.kind);

/**
 * Sends every kind `count` times, all at once (a burst); each send is resent twice unless answered
 * 2xx. `only`: the kinds to send (all by default; bench/poison-memory.ts sends one at a time).
 */
export async function sendPoison(target: Target, other: OtherOrg, count: number, only?: (kind: string) => boolean): Promise<PoisonResult[]> {
  const now = Date.now();
  const list = kinds(target, other).filter((k) => !only || only(k.kind));
  const jobs = list.flatMap((k, ki) => Array.from({ length: count }, (_, i) => ({ ki, r: k.request(i, now) })));
  const finals = await inPool(jobs, jobs.length, async ({ r }) => {
    let answer = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      answer = await sendOnce(r);
      if (/^2\d\d$/.test(answer)) break;
    }
    return answer;
  });
  return list.map((k, ki) => {
    const answers: Record<string, number> = {};
    const fixTimes: number[] = [];
    jobs.forEach((j, n) => {
      if (j.ki !== ki) return;
      answers[finals[n]!] = (answers[finals[n]!] ?? 0) + 1;
      fixTimes.push(j.r.fixTime);
    });
    return { kind: k.kind, protocol: k.protocol, answers, fixTimes };
  });
}

/** In words: what the answers mean for the device that sent them. */
export function poisonVerdict(r: PoisonResult): { ok: boolean; words: string } {
  const codes = Object.keys(r.answers);
  if (codes.every((c) => /^2\d\d$/.test(c))) return { ok: true, words: 'acknowledged: the device moves on' };
  if (codes.some((c) => /^5\d\d$/.test(c) || !/^\d+$/.test(c))) return { ok: false, words: 'server error or no answer: resent for ever' };
  return { ok: false, words: 'refused with a 4xx: the device resends it for ever (jammed)' };
}

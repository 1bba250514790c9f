import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_ITEMS, isErrorCode, type SignInResponse } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, login, type TestContext } from './test/helpers.ts';
import {
  bodyText,
  chosen,
  deref,
  dotted,
  fieldsOf,
  getAt,
  overlay,
  poisonsFor,
  project,
  sample,
  sameValue,
  setAt,
  textPoisons,
  type Doc,
  type Field,
  type Operation,
  type Poison,
  type SampleContext,
} from './test/openapi-fuzz.ts';

// Issue 43: every body field, query and path parameter of the API document, sent with another type,
// NUL, lone surrogates, years 0000/0050/9999, 1e308, subnormals and deep nesting. No answer may be
// a 5xx; what the contract must refuse is a 4xx (a 400 naming the field); a number it accepts is
// given back exactly as sent.

/** Device protocols: their fixes are refused one by one and acknowledged (positions' own tests). */
const NOT_HERE = [/^\/api\/v1\/ingest\//];

/**
 * A request still unanswered after this is a failure of its own (a hung handler). Each answers in
 * well under a second alone; beside the browser tests, yielding the CPU to them, one took over 10 s.
 */
const ANSWER_MS = 30_000;

let t: TestContext;
let doc: Doc;
let admin: SignInResponse;
let superAdmin: SignInResponse;
/** The demo driver of tractor 101: what only a driver does (an inspection report, certifying a log). */
let driver: SignInResponse;
let orgId: string;

let requestNo = 0;
// Each request from its own address: the sign-in and registration limits count per address.
const nextIp = () => `10.${43 + Math.floor(++requestNo / 60000)}.${Math.floor(requestNo / 250) % 250}.${requestNo % 250}`;

async function send(token: string, method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  const body = payload === undefined ? {} : { payload: bodyText(payload), headers: { ...bearer(token), 'content-type': 'application/json' } };
  const answer = t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: bearer(token), remoteAddress: nextIp(), ...body });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method.toUpperCase()} ${url}: no answer in ${ANSWER_MS} ms`)), ANSWER_MS);
  });
  const res = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
  noteCode(method, url, res);
  return res;
}

/** Decision 0257: every 4xx and 5xx of the walk carries a code of the contract's catalogue. */
const uncoded: string[] = [];
const codesSeen = new Set<string>();
function noteCode(method: string, url: string, res: LightMyRequestResponse): void {
  if (res.statusCode < 400) return;
  const code = (json(res) as { code?: unknown } | undefined)?.code;
  if (isErrorCode(code)) codesSeen.add(code);
  else if (uncoded.length < 20) uncoded.push(`${method.toUpperCase()} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
}

const json = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return undefined;
  }
};
const technical = (res: LightMyRequestResponse) =>
  String((json(res) as { technicalMessage?: unknown } | undefined)?.technicalMessage ?? res.body.slice(0, 200));

// ---------------------------------------------------------------- the organization's own ids

/** List endpoints of the records a body field or path parameter refers to, by the name's stem. */
const LISTS: Record<string, string> = {
  asset: 'assets?type=VEHICLE',
  vehicle: 'assets?type=VEHICLE',
  tractor: 'assets?type=VEHICLE',
  trailer: 'assets?type=TRAILER',
  driver: 'drivers',
  codriver: 'drivers',
  group: 'groups',
  place: 'places',
  role: 'roles',
  user: 'users',
  gateway: 'gateways',
  device: 'gateways',
  load: 'loads',
  customer: 'customers',
  devicemodel: '/api/v1/settings/device-models',
};
const ids = new Map<string, string[]>();

function itemsOf(body: unknown): Array<Record<string, unknown>> {
  const list = Array.isArray(body) ? body : (body as { content?: unknown } | undefined)?.content;
  const hasId = (i: unknown): i is Record<string, unknown> =>
    typeof i === 'object' && i !== null && ['string', 'number'].includes(typeof (i as { id?: unknown }).id);
  return Array.isArray(list) ? list.filter(hasId) : [];
}

async function loadIds(): Promise<void> {
  for (const [stem, list] of Object.entries(LISTS)) {
    const url = list.startsWith('/') ? list : `/api/v1/organizations/${orgId}/${list}`;
    const res = await send(list.startsWith('/') ? superAdmin.accessToken : admin.accessToken, 'GET', `${url}${url.includes('?') ? '&' : '?'}size=5`);
    // The admin's own user is left out: an update of it could sign the test out.
    ids.set(
      stem,
      itemsOf(json(res))
        .map((i) => String(i.id))
        .filter((id) => id !== admin.user.id),
    );
  }
}

const idStem = (name: string) => name.replace(/Ids?$/, '').toLowerCase();
const context: SampleContext = {
  idFor: (name) => ids.get(idStem(name))?.[0],
  unique: () => ++requestNo,
};

/** Who sends a request: a token, and the path parameters that are this user's own (`userId`, `driverId`). */
interface Persona {
  token: string;
  own: Record<string, string>;
}
const personas = {} as { admin: Persona; superAdmin: Persona; driver: Persona };

/** Path parameters: the persona's own, else the organization's first record, found by listing the path before it. */
const paramCache = new Map<string, string>();
async function resolvePath(path: string, persona: Persona): Promise<string> {
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const m = /^\{(.+)\}$/.exec(parts[i]!);
    if (!m) continue;
    const name = m[1]!;
    if (name === 'orgId' || persona.own[name]) {
      parts[i] = name === 'orgId' ? orgId : persona.own[name]!;
      continue;
    }
    const prefix = parts.slice(0, i).join('/');
    const key = `${persona.token}${prefix}/{${name}}`;
    if (!paramCache.has(key)) paramCache.set(key, (await findId(prefix, parts[i - 1] ?? '', persona.token)) ?? context.idFor(name) ?? crypto.randomUUID());
    parts[i] = paramCache.get(key)!;
  }
  return parts.join('/');
}

async function findId(prefix: string, collection: string, token: string): Promise<string | undefined> {
  const list = itemsOf(json(await send(token, 'GET', prefix)));
  const own = list.find((i) => i.id !== admin.user.id)?.id;
  if (own !== undefined) return String(own);
  // A record's nested list (`loads/{loadId}/stops/{stopId}`): the parent's property of that name.
  const parent = json(await send(token, 'GET', prefix.split('/').slice(0, -1).join('/')));
  const nested = (parent as Record<string, unknown> | undefined)?.[collection];
  const first = itemsOf(nested)[0]?.id;
  return first === undefined ? undefined : String(first);
}

// ---------------------------------------------------------------- bodies the document cannot say

const ORG = '/api/v1/organizations/{orgId}';
const iso = (offsetHours: number) => new Date(Date.now() + offsetHours * 3_600_000).toISOString();
const previousQuarter = () => {
  const now = new Date();
  const q = Math.floor(now.getUTCMonth() / 3);
  return q === 0 ? `${now.getUTCFullYear() - 1}Q4` : `${now.getUTCFullYear()}Q${q}`;
};

/**
 * What a valid request needs beyond its schema (a rule between fields, a file's columns), laid
 * over the sample so the poisoned fields reach the database: `n` makes texts unique.
 */
const HINTS: Record<string, (n: number) => unknown> = {
  [`POST ${ORG}/dvirs`]: async () => ({ items: await allItemsPassed(), signature: { name: 'Fay Fuzz', imageId: null } }),
  [`POST ${ORG}/dvirs/{dvirId}/review`]: () => ({ signature: { imageId: null } }),
  'POST /api/v1/auth/authenticate': () => ({ email: DEMO.dispatcher.email, password: DEMO.dispatcher.password }),
  'POST /api/v1/organizations': () => ({ mcNumber: null }),
  [`PUT ${ORG}/drivers/{id}`]: () => ({ userId: null }),
  [`POST ${ORG}/drivers`]: () => ({ userId: null }),
  [`POST ${ORG}/groups/{groupId}/members`]: () => ({ members: [{ type: 'DRIVER', id: context.idFor('driverId') }] }),
  [`POST ${ORG}/imports/vehicles/preview`]: (n) => ({ csv: `Unit number,VIN,Make,Year,Odometer\nV${n},1HGCM82633A004352,Volvo,2020,1000\n` }),
  [`POST ${ORG}/imports/vehicles`]: (n) => ({ csv: `Unit number,VIN,Make,Year,Odometer\nV${n},1HGCM82633A004352,Volvo,2020,1000\n` }),
  [`POST ${ORG}/imports/trailers/preview`]: (n) => ({ csv: `Unit number,Make\nT${n},Wabash\n` }),
  [`POST ${ORG}/imports/trailers`]: (n) => ({ csv: `Unit number,Make\nT${n},Wabash\n` }),
  [`POST ${ORG}/imports/drivers/preview`]: (n) => ({ csv: `First name,Last name,Licence number,Licence state\nFay,Fuzz,L${n},TX\n` }),
  [`POST ${ORG}/imports/drivers`]: (n) => ({ csv: `First name,Last name,Licence number,Licence state\nFay,Fuzz,L${n},TX\n` }),
  [`POST ${ORG}/ifta/fuel-purchases/import/preview`]: (n) => fuelCsv(n),
  [`POST ${ORG}/ifta/fuel-purchases/import`]: (n) => fuelCsv(n),
  [`POST ${ORG}/ifta/filings`]: () => ({ quarter: previousQuarter() }),
  [`POST ${ORG}/work-orders`]: () => ({ scheduleId: null }),
  [`POST ${ORG}/maintenance-schedules`]: () => ({ groupId: null }),
  [`PUT ${ORG}/maintenance-schedules/{scheduleId}`]: () => ({ groupId: null }),
  [`POST ${ORG}/places/import`]: (n) => ({ content: `name,latitude,longitude,radiusMeters\nYard ${n},32.78,-96.8,150\n` }),
  [`POST ${ORG}/loads`]: () => ({
    customerPlaceId: null,
    stops: [
      { kind: 'PICKUP', placeId: null, windowStart: iso(24), windowEnd: iso(26) },
      { kind: 'DELIVERY', placeId: null, latitude: 30.27, longitude: -97.74, windowStart: iso(30), windowEnd: iso(32) },
    ],
  }),
  [`PUT ${ORG}/loads/{loadId}`]: () => ({
    customerPlaceId: null,
    stops: [
      { kind: 'PICKUP', placeId: null, windowStart: iso(24), windowEnd: iso(26) },
      { kind: 'DELIVERY', placeId: null, latitude: 30.27, longitude: -97.74, windowStart: iso(30), windowEnd: iso(32) },
    ],
  }),
  [`POST ${ORG}/loads/import`]: (n) => ({
    content: `reference,customer,kind,latitude,longitude,windowStart,windowEnd\nR${n},Acme,PICKUP,32.78,-96.8,${iso(24)},${iso(26)}\nR${n},Acme,DELIVERY,30.27,-97.74,${iso(30)},${iso(32)}\n`,
  }),
};
/** An inspection report's items, every one passed: the standard ones and the organization's own. */
async function allItemsPassed() {
  const own = json(await send(admin.accessToken, 'GET', `/api/v1/organizations/${orgId}/maintenance/inspection-items`)) as
    { items?: Array<{ name: string }> } | undefined;
  return [...DVIR_ITEMS.map((i) => i.code), ...(own?.items ?? []).map((i) => i.name)].map((item) => ({ item, ok: true, note: null }));
}
const fuelCsv = (n: number) => ({
  csv: `Date,Unit,State,Gallons,Receipt,Price,Total\n${new Date().toISOString().slice(0, 10)},101,TX,50.5,R${n},3.999,201.95\n`,
  preset: 'CUSTOM',
  dateFormat: 'YMD',
  mapping: {
    date: 'Date',
    unitNumber: 'Unit',
    jurisdiction: 'State',
    gallons: 'Gallons',
    receiptNumber: 'Receipt',
    pricePerUnit: 'Price',
    totalAmount: 'Total',
  },
});

// ---------------------------------------------------------------- one operation

interface Found {
  failures: string[];
  /** Operations whose valid-ish request answered 2xx: their poisoned fields reach the database. */
  covered: number;
  requests: number;
  /** Accepted values read back and compared with what was sent. */
  compared: number;
}

const jsonBodySchema = (op: Operation) => op.requestBody?.content?.['application/json']?.schema;
const isStream = (op: Operation) => Object.values(op.responses ?? {}).some((r) => Object.keys(r.content ?? {}).includes('text/event-stream'));
const ok = (status: number) => status >= 200 && status < 300;

async function fuzzOperation(method: string, path: string, op: Operation, found: Found): Promise<void> {
  const params = op.parameters ?? [];
  const requiredQuery = Object.fromEntries(
    params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sample(doc, p.schema, p.name, context))]),
  );
  const schema = jsonBodySchema(op);
  const where = `${method.toUpperCase()} ${path}`;
  const hint = HINTS[where];
  const withQuery = (u: string, query: Record<string, string>) => {
    const qs = Object.entries(query)
      .map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith('%') ? v : encodeURIComponent(v)}`)
      .join('&');
    return qs ? `${u}?${qs}` : u;
  };
  // An action without a body (deactivate, accept, delete) is only sent with poisoned parameters:
  // as it stands it would act on the organization's records.
  const actsAsItStands = method === 'get' || schema !== undefined;

  /** As `persona`: the path with its ids, the record's own values for an update, the valid-ish answer. */
  const tryAs = async (persona: Persona) => {
    const url = await resolvePath(path, persona);
    let current: unknown;
    if (schema && (method === 'put' || method === 'patch')) {
      const res = await send(persona.token, 'GET', url);
      if (ok(res.statusCode)) current = json(res);
    }
    // A new sample (new unique texts) for each request.
    const base = async () => {
      const value = current !== undefined ? project(doc, schema, current, 'body', context) : sample(doc, schema, 'body', context);
      return hint ? overlay(value, await hint(context.unique())) : value;
    };
    const res = actsAsItStands ? await send(persona.token, method, withQuery(url, requiredQuery), schema ? await base() : undefined) : undefined;
    return { persona, url, base, res };
  };
  // The organization's admin; the super administrator where the admin may not; the demo driver
  // for what only a driver does (an inspection report, certifying their log).
  let as = await tryAs(path.startsWith(ORG) ? personas.admin : personas.superAdmin);
  for (const next of [personas.superAdmin, personas.driver]) {
    if (!as.res || ![403, 404].includes(as.res.statusCode) || next === as.persona) break;
    const other = await tryAs(next);
    if (other.res && ![403, 404].includes(other.res.statusCode)) as = other;
  }
  const { url, base, res: baseRes } = as;
  const token = as.persona.token;
  if (baseRes) {
    found.requests++;
    if (ok(baseRes.statusCode)) found.covered++;
    if (baseRes.statusCode >= 500) found.failures.push(`${where} valid-ish request: ${baseRes.statusCode} ${technical(baseRes)}`);
    // FUZZ_TRACE=1 lists the operations whose valid-ish request is refused (to write a hint for them).
    if (process.env.FUZZ_TRACE && !ok(baseRes.statusCode)) console.info(`not 2xx: ${baseRes.statusCode} ${where}: ${technical(baseRes).slice(0, 300)}`);
  }

  const check = async (
    res: LightMyRequestResponse,
    label: string,
    poison: Poison,
    named: string,
    readBack?: (res: LightMyRequestResponse) => Promise<unknown>,
  ) => {
    found.requests++;
    const at = `${where} ${label} = ${poison.name}`;
    if (res.statusCode >= 500) return found.failures.push(`${at}: ${res.statusCode} ${technical(res)}`);
    if (ok(res.statusCode) && poison.refuse) return found.failures.push(`${at}: accepted (${res.statusCode})`);
    if (res.statusCode === 400 && poison.refuse && baseRes !== undefined && baseRes.statusCode !== 400 && !technical(res).includes(named)) {
      return found.failures.push(`${at}: the 400 does not name ${named}: ${technical(res)}`);
    }
    if (ok(res.statusCode) && readBack) {
      // Absent or null: the record does not keep the field in this case (a weekday of a daily report).
      const got = await readBack(res);
      if (got === undefined || got === null) return undefined;
      found.compared++;
      if (!sameValue(poison.value, got)) found.failures.push(`${at}: stored as ${JSON.stringify(got)}`);
    }
    return undefined;
  };

  if (schema) {
    const fields: Field[] = fieldsOf(doc, schema, await base());
    for (const field of fields) {
      const name = String(field.path.filter((k) => typeof k === 'string').at(-1) ?? 'body');
      for (const poison of poisonsFor(doc, field.schema, name)) {
        const res = await send(token, method, withQuery(url, requiredQuery), setAt(await base(), field.path, poison.value));
        await check(res, dotted(field.path), poison, dotted(field.path), async (r) => {
          const echoed = getAt(json(r), field.path);
          if (echoed !== undefined) return echoed;
          const id = (json(r) as { id?: unknown } | undefined)?.id;
          const again = method === 'post' ? (typeof id === 'string' ? `${url}/${id}` : undefined) : url;
          return again === undefined ? undefined : getAt(json(await send(token, 'GET', again)), field.path);
        });
      }
    }
  }
  for (const p of params.filter((x) => x.in === 'query')) {
    for (const poison of textPoisons(deref(doc, p.schema), p.name, doc).filter((x) => actsAsItStands || x.refuse)) {
      const res = await send(token, method, withQuery(url, { ...requiredQuery, [p.name]: String(poison.value) }), schema ? await base() : undefined);
      await check(res, `?${p.name}`, poison, `querystring.${p.name}`);
    }
  }
  for (const p of params.filter((x) => x.in === 'path' && x.name !== 'orgId')) {
    // Not '': an empty segment is another route (`/activity-logs/` is the list).
    for (const poison of textPoisons(chosen(doc, p.schema), p.name, doc).filter((x) => (x.refuse || x.name.startsWith('invalid')) && x.value !== '')) {
      const value = String(poison.value);
      const poisoned = await resolvePath(path.replace(`{${p.name}}`, value.startsWith('%') ? value : encodeURIComponent(value)), as.persona);
      const res = await send(token, method, withQuery(poisoned, requiredQuery), schema ? await base() : undefined);
      await check(res, `{${p.name}}`, poison, `params.${p.name}`);
    }
  }
}

// ---------------------------------------------------------------- the walk

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  admin = await login(t.app, DEMO.admin, nextIp());
  superAdmin = await login(t.app, DEMO.superAdmin, nextIp());
  driver = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' }, nextIp());
  orgId = admin.user.organization!.id;
  personas.admin = { token: admin.accessToken, own: {} };
  personas.superAdmin = { token: superAdmin.accessToken, own: {} };
  personas.driver = { token: driver.accessToken, own: { userId: driver.user.id, ...(driver.user.driverId ? { driverId: driver.user.driverId } : {}) } };
  await loadIds();
});
afterAll(async () => {
  await t?.close();
});

describe('every request of the API document, poisoned field by field', () => {
  it('answers no 5xx, refuses what no column holds with a 400 naming the field, gives every error a catalogued code, and stores what it accepts as sent', async () => {
    const found: Found = { failures: [], covered: 0, requests: 0, compared: 0 };
    const started = Date.now();
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      if (NOT_HERE.some((re) => re.test(path))) continue;
      for (const [method, op] of Object.entries(item)) {
        const hasInput = jsonBodySchema(op) !== undefined || (op.parameters ?? []).some((p) => p.in === 'query' || (p.in === 'path' && p.name !== 'orgId'));
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || !hasInput || isStream(op)) continue;
        operations++;
        await fuzzOperation(method, path, op, found);
      }
    }
    console.info(
      `openapi fuzz: ${operations} operations, ${found.requests} requests, ${found.covered} valid-ish requests answered 2xx, ${found.compared} accepted values read back, ${Date.now() - started} ms`,
    );
    console.info(`openapi fuzz: error codes answered: ${[...codesSeen].sort().join(', ')}`);
    expect(found.failures).toEqual([]);
    expect(uncoded).toEqual([]);
    // The walk reaches the database: most valid-ish requests succeed, so their poisoned fields get past validation.
    expect(found.covered).toBeGreaterThan(operations / 2);
  }, 240_000);
});

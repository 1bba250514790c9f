// Builds requests from the OpenAPI document for the input fuzz test (openapi-fuzz.test.ts): a
// valid-ish value for every schema, the fields of a body, and the poisoned values each field is
// sent with. Pure functions over the document; the test sends the requests.

import { randomUUID } from 'node:crypto';

export type Schema = Record<string, unknown>;
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
export interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
export type FieldPath = Array<string | number>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema a `$ref` points to (one level at a time, as far as it goes). */
export function deref(doc: Doc, schema: unknown): Schema {
  let s = isSchema(schema) ? schema : {};
  for (let hops = 0; typeof s.$ref === 'string' && hops < 10; hops++) s = doc.components?.schemas?.[s.$ref.split('/').pop() ?? ''] ?? {};
  return s;
}

const branches = (s: Schema): Schema[] => [...(Array.isArray(s.oneOf) ? s.oneOf : []), ...(Array.isArray(s.anyOf) ? s.anyOf : [])].filter(isSchema);
const isNullOnly = (s: Schema) => s.type === 'null' || (s.enum !== undefined && Array.isArray(s.enum) && s.enum.every((v) => v === null));

/** The schema a value is generated from: the first non-null branch of a union, allOf merged. */
export function chosen(doc: Doc, schema: unknown): Schema {
  const s = deref(doc, schema);
  const alts = branches(s).map((b) => deref(doc, b));
  if (alts.length > 0) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    return chosen(doc, { ...rest, ...(alts.find((b) => !isNullOnly(b)) ?? alts[0]) });
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return (allOf as unknown[]).reduce<Schema>((acc, part) => ({ ...acc, ...chosen(doc, part) }), rest);
  }
  return s;
}

/** Every type a schema accepts across its union branches (`string`, `number`…). */
function typesOf(doc: Doc, schema: unknown): Set<string> {
  const s = deref(doc, schema);
  const alts = branches(s);
  if (alts.length > 0) return new Set(alts.flatMap((b) => [...typesOf(doc, b)]));
  const t = s.type === 'integer' ? 'number' : s.type;
  if (typeof t === 'string') return new Set([t]);
  if (s.properties) return new Set(['object']);
  if (s.enum) return new Set((s.enum as unknown[]).map((v) => typeof v));
  return new Set(['any']);
}

/** What a sample needs from the server: ids of the organization's own records, and unique texts. */
export interface SampleContext {
  /** An id of the organization's record a field of this name refers to (`driverId`, `assetIds`). */
  idFor(name: string): string | undefined;
  /** A new number each call, for texts that must be unique (names, unit numbers, e-mails). */
  unique(): number;
}

const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const currentQuarter = () => {
  const now = new Date();
  return `${now.getUTCFullYear()}Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
};

/** Values a field of this name takes in the demo organization, where its type alone says too little. */
function namedText(name: string, n: number): string[] {
  const key = name.toLowerCase();
  if (key === 'vin') return ['1HGCM82633A004352'];
  if (/(state|jurisdiction)$/.test(key)) return ['TX'];
  if (/email/.test(key)) return [`fuzz${n}@fuzz.test`];
  if (/password/.test(key)) return ['Str0ngPassword!#'];
  if (/phone/.test(key)) return ['+1 555 0100'];
  if (key === 'quarter') return [currentQuarter()];
  if (/timezone|^tz$/.test(key)) return ['America/Chicago'];
  if (/colou?r/.test(key)) return ['#336699'];
  if (/expir/.test(key)) return [day(365)];
  if (/At$/.test(name)) return [new Date(Date.now() - 3_600_000).toISOString()];
  if (/time$|timeofday/.test(key)) return ['07:30'];
  if (/^(from|since|start)/.test(key)) return [day(-3)];
  if (/day|date|^(to|until|end)/.test(key)) return [day(0)];
  if (/uniqueid|imei/.test(key)) return [`${860000000000000 + n}`];
  if (/url|link/.test(key)) return ['https://example.com/fuzz'];
  return [];
}

function sampleText(s: Schema, name: string, ctx: SampleContext): string {
  const n = ctx.unique();
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : 40;
  const fit = (v: string) => (v.length < min ? v.padEnd(min, '0') : v).slice(0, max);
  if (s.format === 'uuid') return ctx.idFor(name) ?? randomUUID();
  if (s.format === 'date-time') return new Date(Date.now() - (/^(from|since|start)/i.test(name) ? 3 * 86_400_000 : 3_600_000)).toISOString();
  if (s.format === 'date') return /^(from|since|start)/i.test(name) ? day(-3) : day(0);
  if (s.format === 'email') return `fuzz${n}@fuzz.test`;
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/fuzz';
  const candidates = [...namedText(name, n), `F${n}`, `Fuzz ${n}`, `${n}`, 'ABC', 'abc', day(0), new Date().toISOString(), currentQuarter(), 'TX'].map(fit);
  if (typeof s.pattern !== 'string') return candidates[0]!;
  const pattern = new RegExp(s.pattern, 'u');
  return candidates.find((c) => pattern.test(c)) ?? candidates[0]!;
}

function sampleNumber(s: Schema, name: string): number {
  const lo = typeof s.minimum === 'number' ? s.minimum : undefined;
  const hi = typeof s.maximum === 'number' ? s.maximum : undefined;
  const key = name.toLowerCase();
  let v = /lat/.test(key) ? 32.78 : /lon|lng/.test(key) ? -96.8 : s.type === 'integer' ? 1 : 1.5;
  if (lo !== undefined && (v < lo || (v === lo && s.exclusiveMinimum === true)))
    v = s.type === 'integer' ? Math.ceil(lo) + (s.exclusiveMinimum === true ? 1 : 0) : lo + 1;
  if (hi !== undefined && v > hi) v = hi;
  return v;
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

/** A value the schema accepts, as best the document tells: defaults, enums, formats, the field's name. */
export function sample(doc: Doc, schema: unknown, name: string, ctx: SampleContext, depth = 0): unknown {
  const s = chosen(doc, schema);
  if (depth > 8) return null;
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? null;
  const type = s.type ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      return sampleText(s, name, ctx);
    case 'integer':
    case 'number':
      return sampleNumber(s, name);
    case 'boolean':
      return false;
    case 'array': {
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      return Array.from({ length: count }, () => sample(doc, s.items, singular(name), ctx, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(isSchema(s.properties) ? s.properties : {})) out[key] = sample(doc, sub, key, ctx, depth + 1);
      return out;
    }
    default:
      return s.nullable === true ? null : 'F';
  }
}

/**
 * Keeps from `current` (a record as the API answers it) what the input schema takes, so an update
 * sends the record's own values: anything else is sampled.
 */
export function project(doc: Doc, schema: unknown, current: unknown, name: string, ctx: SampleContext): unknown {
  const s = chosen(doc, schema);
  if (isSchema(s.properties) && isSchema(current)) {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(s.properties)) out[key] = key in current ? project(doc, sub, current[key], key, ctx) : sample(doc, sub, key, ctx);
    return out;
  }
  const types = typesOf(doc, schema);
  const kind = current === null ? 'null' : Array.isArray(current) ? 'array' : typeof current;
  if (kind === 'null' && (s.nullable === true || types.has('null'))) return null;
  if (kind === 'array' && types.has('array') && Array.isArray(current)) return current.map((item) => project(doc, s.items, item, singular(name), ctx));
  if (kind !== 'null' && kind !== 'array' && types.has(kind)) return current;
  return sample(doc, schema, name, ctx);
}

/**
 * `hint` laid over `value`: objects merged key by key, list items by position, anything else
 * replaced; an `undefined` in the hint leaves the key out.
 */
export function overlay(value: unknown, hint: unknown): unknown {
  if (Array.isArray(hint) && Array.isArray(value)) return hint.map((h, i) => (i < value.length ? overlay(value[i], h) : h));
  if (isSchema(hint) && isSchema(value)) {
    const out: Record<string, unknown> = { ...value };
    for (const [key, h] of Object.entries(hint)) {
      if (h === undefined) delete out[key];
      else out[key] = overlay(value[key], h);
    }
    return out;
  }
  return hint;
}

/** A field of a body: where it is, and its schema. */
export interface Field {
  path: FieldPath;
  schema: Schema;
}

/** The fields of `value` (a sample of `schema`), nested ones too; of a list, its first item. */
export function fieldsOf(doc: Doc, schema: unknown, value: unknown, path: FieldPath = []): Field[] {
  const s = chosen(doc, schema);
  const out: Field[] = [];
  if (isSchema(value) && isSchema(s.properties)) {
    for (const [key, sub] of Object.entries(s.properties)) {
      if (!(key in value)) continue;
      out.push({ path: [...path, key], schema: deref(doc, sub) }, ...fieldsOf(doc, sub, value[key], [...path, key]));
    }
  } else if (Array.isArray(value) && value.length > 0 && s.items !== undefined) {
    out.push({ path: [...path, 0], schema: deref(doc, s.items) }, ...fieldsOf(doc, s.items, value[0], [...path, 0]));
  }
  return out;
}

export function getAt(value: unknown, path: FieldPath): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** A copy of `value` with the field at `path` replaced. */
export function setAt(value: unknown, path: FieldPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === key ? setAt(item, rest, replacement) : item));
  const copy: Record<string | number, unknown> = { ...(value as Record<string, unknown>) };
  copy[key!] = setAt(copy[key!], rest, replacement);
  return copy;
}

/**
 * A poisoned value. `refuse`: the contract must answer 4xx to it. Otherwise it is a value some
 * column can hold: the API may refuse it, or store it and give back exactly what was sent.
 */
export interface Poison {
  name: string;
  value: unknown;
  refuse: boolean;
}

/**
 * Stands for an array nested `DEEP` levels (`[[[…]]]`) in a body: JSON.stringify overflows the
 * stack on such a value, so `bodyText` writes it in as text.
 */
export const DEEPLY_NESTED = '\u0001nested 5000 deep\u0001';
const DEEP = 5000;

/** The JSON text of a body, the deep-nesting marker written out. */
export function bodyText(body: unknown): string {
  return JSON.stringify(body).replaceAll(JSON.stringify(DEEPLY_NESTED), `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
}

const YEARS = ['0000', '0050', '9999'];
const isDayPattern = (s: Schema) => typeof s.pattern === 'string' && s.pattern.includes('\\d{4}-\\d{2}-\\d{2}');
const isQuarterPattern = (s: Schema) => typeof s.pattern === 'string' && /Q\[1-4\]/.test(s.pattern);

/**
 * Dates in years no fleet record has, in the shape the field takes (date-time, day, quarter), and
 * the first and last day of the years it may take (1900, 2200): refused by a rule of the field, or
 * stored as sent (not read as 2000 or 1950).
 */
function yearPoisons(s: Schema, name: string): Poison[] {
  const dayLike = s.format === 'date' || isDayPattern(s) || (s.format === undefined && s.pattern === undefined && /^(day|date)$/i.test(name));
  const edges = (first: string, last: string): Poison[] => [
    { name: 'the first day of 1900', value: first, refuse: false },
    { name: 'the last day of 2200', value: last, refuse: false },
  ];
  if (s.format === 'date-time' || (!dayLike && /At$/.test(name) && s.format === undefined && s.pattern === undefined)) {
    return [
      ...YEARS.map((y) => ({ name: `year ${y}`, value: `${y}-06-01T12:00:00Z`, refuse: true })),
      ...edges('1900-01-01T00:00:00Z', '2200-12-31T12:00:00Z'),
    ];
  }
  if (dayLike) return [...YEARS.map((y) => ({ name: `year ${y}`, value: `${y}-06-01`, refuse: true })), ...edges('1900-01-01', '2200-12-31')];
  if (isQuarterPattern(s) || name === 'quarter') return YEARS.map((y) => ({ name: `year ${y}`, value: `${y}Q1`, refuse: true }));
  return [];
}

/**
 * The poisoned values a field of this schema is sent with: another type, NUL and lone surrogates in
 * text, years 0000/0050/9999 in dates, numbers no column holds (1e308, subnormals), deep nesting.
 */
export function poisonsFor(doc: Doc, schema: unknown, name: string): Poison[] {
  const s = chosen(doc, schema);
  const types = typesOf(doc, schema);
  const out: Poison[] = [];
  const only = (t: string) => types.size === 1 && types.has(t);
  if (types.has('string') || types.has('any')) {
    out.push(
      { name: 'NUL', value: 'a\u0000b', refuse: true },
      { name: 'lone high surrogate', value: 'a\ud800b', refuse: true },
      { name: 'lone low surrogate', value: '\udc00', refuse: true },
    );
    out.push(...yearPoisons(s, name));
  }
  if (only('string')) out.push({ name: 'a number for text', value: 12, refuse: true });
  if (types.has('number')) {
    // The field's own bounds: what it takes, it must give back.
    for (const [bound, v] of [
      ['largest', s.maximum],
      ['smallest', s.minimum],
    ] as const) {
      if (typeof v === 'number' && Math.abs(v) < 1e15 && s.exclusiveMaximum !== true && s.exclusiveMinimum !== true)
        out.push({ name: `the ${bound} it takes (${v})`, value: v, refuse: false });
    }
    out.push(
      { name: '1e-300', value: 1e-300, refuse: false },
      { name: '1e308', value: 1e308, refuse: false },
      { name: '-1e308', value: -1e308, refuse: false },
      { name: '1e39', value: 1e39, refuse: false },
      { name: '2^31', value: 2 ** 31, refuse: false },
      { name: '5e-324', value: 5e-324, refuse: true },
      { name: '1e-320', value: 1e-320, refuse: true },
    );
  }
  if (only('number'))
    out.push(
      { name: 'empty text for a number', value: '', refuse: true },
      { name: 'true for a number', value: true, refuse: true },
      { name: 'numeric text for a number', value: '12', refuse: true },
    );
  if (only('boolean')) out.push({ name: 'text for a boolean', value: 'true', refuse: true }, { name: '1 for a boolean', value: 1, refuse: true });
  if (types.has('array') || types.has('object') || types.has('any')) out.push({ name: 'nesting 5000 deep', value: DEEPLY_NESTED, refuse: true });
  return out;
}

/** Query and path values: every query value arrives as text. */
export function textPoisons(schema: Schema | undefined, name: string, doc: Doc): Poison[] {
  const s = chosen(doc, schema ?? {});
  const out: Poison[] = [
    { name: 'NUL', value: 'a\u0000b', refuse: true },
    { name: 'invalid UTF-8 (a surrogate)', value: '%ED%A0%80', refuse: false },
    ...yearPoisons(s, name),
  ];
  if (s.type === 'integer' || s.type === 'number') {
    out.push(
      { name: 'empty', value: '', refuse: true },
      { name: 'true', value: 'true', refuse: true },
      { name: '1e308', value: '1e308', refuse: false },
      { name: '5e-324', value: '5e-324', refuse: true },
    );
  }
  return out;
}

/**
 * Whether `got` (read back) is the value `sent`. Numbers may differ by a float's rounding (a
 * `real` column keeps 7 digits); anything else must be equal.
 */
export function sameValue(sent: unknown, got: unknown): boolean {
  // An instant may come back in another spelling of the same time (`.000Z`, another offset).
  if (typeof sent === 'string' && typeof got === 'string' && /T\d{2}:\d{2}/.test(sent)) return Date.parse(sent) === Date.parse(got);
  if (typeof sent === 'number' && typeof got === 'number') {
    if (sent === got) return true;
    if (sent === 0 || got === 0 || Math.sign(sent) !== Math.sign(got)) return false;
    return Math.abs(got - sent) <= Math.abs(sent) * 1e-6;
  }
  return JSON.stringify(sent) === JSON.stringify(got);
}

/** `a.b.0.c`, the path as the API's error body names it. */
export const dotted = (path: FieldPath) => path.join('.');

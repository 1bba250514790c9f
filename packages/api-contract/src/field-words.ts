import { z } from 'zod';

// Validation messages in words (decision 0085). Every contract file declares, next to its schemas,
// the label a person reads for each request field; one zod error map turns an issue into
// "<label> <rule>" ("VIN is a required field", "Unit number must be at most 32 characters",
// "page must be a whole number of 0 or more"). The API's 400s and the web forms (zodResolver) parse
// with the same zod, so the same words show in both. A message a schema writes itself wins.

const labels = new Map<string, string>();

/**
 * Declares field labels: a field name (`vin`), or a dotted path without array indexes
 * (`admin.email`) where a nested field reads differently. A name means one thing everywhere;
 * declaring it twice with different words throws when the module loads.
 */
export function defineLabels(entries: Record<string, string>): void {
  for (const [key, label] of Object.entries(entries)) {
    const known = labels.get(key);
    if (known !== undefined && known !== label) throw new Error(`Field ${key} is labelled both "${known}" and "${label}"`);
    labels.set(key, label);
  }
}

/** The declared label of the field at `path` (dotted path first, then its own name), or undefined. */
export function declaredLabel(path: readonly PropertyKey[]): string | undefined {
  const names = path.filter((k): k is string => typeof k === 'string');
  if (names.length === 0) return undefined;
  return labels.get(names.join('.')) ?? labels.get(names[names.length - 1]!);
}

/** Words for the field at `path`: its label; undeclared query and path parameters read as their names. */
export function fieldWords(path: readonly PropertyKey[]): string {
  const names = path.filter((k): k is string => typeof k === 'string');
  const base = declaredLabel(path) ?? names[names.length - 1] ?? 'The request body';
  const last = path[path.length - 1];
  // An item of a list: say which one (1-based, as a person counts).
  return typeof last === 'number' ? `${base} (item ${last + 1})` : base;
}

// zod's internal check definitions, read to state a number's whole rule in one sentence.
interface CheckDef {
  check?: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}
interface SchemaLike {
  _zod?: { def?: { checks?: Array<{ _zod?: { def?: CheckDef } }> } };
}

/** "a whole number from 1 to 500", "a number of 0 or more", "a number": the rule a number schema holds. */
function numberRule(schema: SchemaLike | undefined): string {
  const checks = (schema?._zod?.def?.checks ?? []).map((c) => c._zod?.def ?? {});
  const whole = checks.some((c) => c.check === 'number_format' && /int/.test(c.format ?? ''));
  const kind = whole ? 'a whole number' : 'a number';
  let lo: CheckDef | undefined;
  let hi: CheckDef | undefined;
  for (const c of checks) {
    if (c.check === 'greater_than') lo = c;
    if (c.check === 'less_than') hi = c;
  }
  // Safe-integer bounds are the machine's, not the field's.
  const bound = (c: CheckDef | undefined) => (c && typeof c.value === 'number' && Math.abs(c.value) < Number.MAX_SAFE_INTEGER ? c : undefined);
  lo = bound(lo);
  hi = bound(hi);
  const v = (c: CheckDef) => String(c.value);
  if (lo && hi && lo.inclusive && hi.inclusive) return `${kind} from ${v(lo)} to ${v(hi)}`;
  const parts: string[] = [];
  if (lo) parts.push(lo.inclusive ? `${v(lo)} or more` : `greater than ${v(lo)}`);
  if (hi) parts.push(hi.inclusive ? `${v(hi)} or less` : `less than ${v(hi)}`);
  if (parts.length === 0) return kind;
  // "of 0 or more", "greater than 0", "greater than 0 and 40 or less".
  const single = parts.length === 1 && (lo ?? hi)?.inclusive;
  return single ? `${kind} of ${parts[0]!}` : `${kind} ${parts.join(' and ')}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
  date: 'must be a date',
  bigint: 'must be a whole number',
  record: 'must be an object',
  tuple: 'must be a list',
  set: 'must be a list',
  map: 'must be an object',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be a valid email address',
  uuid: 'must be an id',
  guid: 'must be an id',
  url: 'must be a web address (URL)',
  datetime: 'must be an ISO-8601 date and time such as 2026-05-01T08:00:00Z',
  date: 'must be a date such as 2026-05-01',
  time: 'must be a time such as 08:00',
};

const listed = (values: readonly unknown[]): string => {
  const words = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]!}`;
};

/** What an issue says after the field's words ("is a required field", "must be at most 32 characters"). */
function rule(iss: z.core.$ZodRawIssue, schema: SchemaLike | undefined): string {
  switch (iss.code) {
    case 'invalid_type': {
      if (iss.input === undefined || (iss.input === null && iss.expected !== 'null')) return 'is a required field';
      if (iss.expected === 'number' || iss.expected === 'int') return `must be ${numberRule(schema)}`;
      return TYPE_WORDS[iss.expected] ?? `must be ${iss.expected}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = iss.code === 'too_small';
      const n = Number(small ? iss.minimum : iss.maximum);
      if (iss.origin === 'number' || iss.origin === 'int') {
        if (schema) return `must be ${numberRule(schema)}`;
        return small ? `must be ${iss.inclusive ? `${n} or more` : `greater than ${n}`}` : `must be ${iss.inclusive ? `${n} or less` : `less than ${n}`}`;
      }
      if (iss.origin === 'string') {
        if ('exact' in iss && iss.exact) return `must be exactly ${n} characters`;
        if (small && n === 1) return 'is a required field';
        return small ? `must be at least ${n} characters` : `must be at most ${n} characters`;
      }
      if (iss.origin === 'array' || iss.origin === 'set') {
        if (small) return n === 1 ? 'must list at least one item' : `must list at least ${n} items`;
        return `can list at most ${n} items`;
      }
      return small ? `must be at least ${n}` : `must be at most ${n}`;
    }
    case 'invalid_format':
      return FORMAT_WORDS[iss.format] ?? 'is not valid.';
    case 'invalid_value':
      return iss.values.length <= 10 ? `must be ${iss.values.length > 1 ? 'one of ' : ''}${listed(iss.values)}` : 'is not one of the allowed values';
    case 'unrecognized_keys':
      return `has unknown field${iss.keys.length > 1 ? 's' : ''} ${iss.keys.join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(iss.divisor)}`;
    case 'invalid_key':
      return 'has a key that is not valid';
    case 'invalid_element':
      return 'has a value that is not valid';
    default:
      return 'is not valid.';
  }
}

/** The message of one zod issue in words, the field named by its label. */
export function issueInWords(iss: z.core.$ZodRawIssue): string {
  // zod stamps the schema that owns a failed check on the raw issue (not in its public type).
  const schema = ((iss as { schema?: unknown }).schema ?? iss.inst) as SchemaLike | undefined;
  return `${fieldWords(iss.path ?? [])} ${rule(iss, schema)}`;
}

// One map for the whole process: Fastify's validator and the web's resolver both parse with it.
z.config({ customError: issueInWords });

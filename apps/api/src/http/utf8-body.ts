import { decodeTextFile, decodeUtf8, fieldWords, MAX_INPUT_DEPTH, type JsonValue } from '@fleet/api-contract';
import type { FastifyInstance } from 'fastify';
import { invalidField, type AppError } from './errors.ts';

// Request bodies are UTF-8 or refused (issue 43): Fastify decodes a body leniently, so bytes that
// are not UTF-8 (a CSV saved as Windows-1252) became U+FFFD and were stored that way.

/** A text body (a CSV, an ELD output file): its text, or a 400 naming `field` and the first bad line. */
export function textFileBody(bytes: Buffer, field: string): string {
  const decoded = decodeTextFile(bytes);
  if (!decoded.ok) throw invalidField(field, decoded.message);
  return decoded.text;
}

/** The path (`csv`, `stops.0.name`) of the first text of `value` holding U+FFFD, and its line when it has several. */
function replacedAt(value: unknown, path: string[] = []): { path: string[]; line: number | null } | null {
  if (typeof value === 'string') {
    const at = value.indexOf('\ufffd');
    return at < 0 ? null : { path, line: value.includes('\n') ? value.slice(0, at).split('\n').length : null };
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = replacedAt(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Nesting levels of a JSON body that are parsed: past every rule's limit (MAX_INPUT_DEPTH, an attribute's 8). */
export const PARSED_DEPTH = MAX_INPUT_DEPTH + 2;

/** Bytes of JSON's grammar (RFC 8259). */
const B = {
  quote: 0x22,
  backslash: 0x5c,
  openBrace: 0x7b,
  closeBrace: 0x7d,
  openBracket: 0x5b,
  closeBracket: 0x5d,
  comma: 0x2c,
  colon: 0x3a,
  minus: 0x2d,
  plus: 0x2b,
  dot: 0x2e,
  zero: 0x30,
  nine: 0x39,
  e: 0x65,
  E: 0x45,
  u: 0x75,
} as const;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= B.zero && c <= B.nine;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** The characters that may follow a backslash in a string: " \ / b f n r t (u is read apart). */
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = [Buffer.from('true'), Buffer.from('false'), Buffer.from('null')];

/** What the grammar allows next. */
const enum Next {
  Value,
  /** After `{`: a key or `}`. */
  KeyOrEnd,
  /** After `[`: a value or `]`. */
  ValueOrEnd,
  /** After `,` in an object. */
  Key,
  Colon,
  /** After a value: `,` or the container's end (nothing at the top). */
  CommaOrEnd,
}

/** The end of the string opening at `i` (the index of its closing quote), or -1 when it is not a JSON string. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (i++; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === B.quote) return i;
    if (c < 0x20) return -1;
    if (c !== B.backslash) continue;
    const e = bytes[++i];
    if (e === B.u) {
      for (let k = 0; k < 4; k++) if (!isHex(bytes[++i] ?? 0)) return -1;
    } else if (e === undefined || !ESCAPES.has(e)) return -1;
  }
  return -1;
}

/** The index after the number starting at `i`, or -1 when it is not a JSON number. */
function numberEnd(bytes: Uint8Array, i: number): number {
  if (bytes[i] === B.minus) i++;
  if (bytes[i] === B.zero) i++;
  else if (isDigit(bytes[i] ?? 0)) while (isDigit(bytes[i] ?? 0)) i++;
  else return -1;
  if (bytes[i] === B.dot) {
    if (!isDigit(bytes[++i] ?? 0)) return -1;
    while (isDigit(bytes[i] ?? 0)) i++;
  }
  if (bytes[i] === B.e || bytes[i] === B.E) {
    i++;
    if (bytes[i] === B.plus || bytes[i] === B.minus) i++;
    if (!isDigit(bytes[i] ?? 0)) return -1;
    while (isDigit(bytes[i] ?? 0)) i++;
  }
  return i;
}

/** The quote at `i` follows an odd run of backslashes (it is part of the string). */
function escaped(bytes: Uint8Array, i: number): boolean {
  let n = 0;
  while (bytes[i - 1 - n] === 0x5c) n++;
  return n % 2 === 1;
}

/**
 * Whether any bracket of the body opens deeper than `maxDepth`, strings skipped: the cheap look that
 * lets almost every body go to JSON.parse at once. On a broken body it may be wrong either way, which
 * is harmless: "no" sends the body to JSON.parse whole, "yes" to the tokenizer, which checks it.
 */
function nestsDeeper(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  // A string's contents are skipped with indexOf (native), not byte by byte.
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      do {
        i = bytes.indexOf(0x22, i + 1);
        if (i < 0) return false;
      } while (escaped(bytes, i));
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A JSON body's bytes with every object or array nested deeper than `maxDepth` emptied ({} or []),
 * so it is never built: no rule looks that deep (a value past MAX_INPUT_DEPTH is refused as nested
 * too deeply whatever it holds; position attributes past 8 levels likewise), while 5,000 levels of
 * {"a":…} cost 160 kB of objects a request, held until it is answered (issue 43: a burst of 100
 * raised the heap's live size, and V8 then let garbage grow to a multiple of it for minutes).
 *
 * The scan checks the whole grammar as it goes (a tokenizer that builds nothing): a body that is
 * not JSON gives null and goes to JSON.parse whole, which names the error, so a cut can never turn
 * a broken body into one that parses. Null also when nothing is that deep (the common case, told by
 * nestsDeeper's one cheap pass). shallow-json.test.ts compares it with parsing whole on random JSON.
 */
export function shallowJsonBytes(bytes: Uint8Array, maxDepth = PARSED_DEPTH): Buffer | null {
  if (!nestsDeeper(bytes, maxDepth)) return null;
  const pieces: Uint8Array[] = [];
  let copied = 0;
  /** Open containers, innermost last: true for an object. */
  const objects: boolean[] = [];
  let cutFrom = -1;
  let next = Next.Value as Next;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (isSpace(c)) continue;
    switch (next) {
      case Next.Colon:
        if (c !== B.colon) return null;
        next = Next.Value;
        continue;
      case Next.CommaOrEnd:
        if (c === B.comma && objects.length > 0) {
          next = objects.at(-1) ? Next.Key : Next.Value;
          continue;
        }
        if (c !== B.closeBrace && c !== B.closeBracket) return null;
        break;
      case Next.Key:
      case Next.KeyOrEnd:
        if (c === B.quote) {
          i = stringEnd(bytes, i);
          if (i < 0) return null;
          next = Next.Colon;
          continue;
        }
        if (next === Next.Key || c !== B.closeBrace) return null;
        break;
      case Next.ValueOrEnd:
        if (c === B.closeBracket) break;
        // A value: read again as one.
        next = Next.Value;
        i--;
        continue;
      case Next.Value:
        if (c === B.openBrace || c === B.openBracket) {
          objects.push(c === B.openBrace);
          if (objects.length === maxDepth + 1) cutFrom = i;
          next = c === B.openBrace ? Next.KeyOrEnd : Next.ValueOrEnd;
          continue;
        }
        if (c === B.quote) i = stringEnd(bytes, i);
        else if (c === B.minus || isDigit(c)) i = numberEnd(bytes, i) - 1;
        else {
          const word = LITERALS.find((w) => w.every((x, k) => bytes[i + k] === x));
          i = word ? i + word.length - 1 : -1;
        }
        if (i < 0) return null;
        next = Next.CommaOrEnd;
        continue;
    }
    // A closing bracket where one may close: it must match the open one.
    const isObject = objects.pop();
    if (isObject === undefined || isObject !== (c === B.closeBrace)) return null;
    if (objects.length === maxDepth) {
      pieces.push(bytes.subarray(copied, cutFrom), Buffer.from(isObject ? '{}' : '[]'));
      copied = i + 1;
      cutFrom = -1;
    }
    next = Next.CommaOrEnd;
  }
  // Whole: one value, every container closed.
  if (next !== Next.CommaOrEnd || objects.length > 0 || pieces.length === 0) return null;
  pieces.push(bytes.subarray(copied));
  return Buffer.concat(pieces);
}

/**
 * JSON bodies must be UTF-8 (RFC 8259). One that is not answers a 400 naming the field whose text
 * holds the bad bytes and its line (a CSV sent as `{csv}`), read from a lenient decoding. Nothing
 * nested deeper than PARSED_DEPTH is parsed (shallowJsonBytes).
 */
export function installUtf8Json(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    const decoded = decodeUtf8(bytes);
    const shallow = shallowJsonBytes(bytes);
    if (decoded.ok) return parseJson(req, shallow ? shallow.toString('utf8') : decoded.text, done);
    let lenient: JsonValue | undefined;
    try {
      lenient = JSON.parse((shallow ?? bytes).toString('utf8')) as JsonValue;
    } catch {
      lenient = undefined;
    }
    const found = replacedAt(lenient);
    const error: AppError =
      found && found.path.length > 0
        ? invalidField(
            found.path.join('.'),
            `${fieldWords(found.path)} is not UTF-8 text${found.line ? ` at line ${found.line}` : ''}: save the file as UTF-8 and try again`,
          )
        : invalidField('body', `The request body is not UTF-8 text (line ${decoded.line})`);
    return done(error, undefined);
  });
}

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * A JSON body's bytes with every object or array nested deeper than `maxDepth` emptied ({} or []),
 * so it is never built: no rule looks that deep (a value past MAX_INPUT_DEPTH is refused as nested
 * too deeply whatever it holds; position attributes past 8 levels likewise), while 5,000 levels of
 * {"a":…} cost 160 kB of objects a request, held until it is answered (issue 43: a burst of 100
 * raised the heap's live size, and V8 then let garbage grow to a multiple of it for minutes).
 * Null when nothing is that deep (the common case: one pass over the bytes, about a third of
 * JSON.parse's time), or when the brackets do not match (JSON.parse then names the error).
 */
export function shallowJsonBytes(bytes: Uint8Array, maxDepth = PARSED_DEPTH): Buffer | null {
  const pieces: Uint8Array[] = [];
  let copied = 0;
  let depth = 0;
  /** Inside a part being cut: the closing bracket each open one needs (a stack of `open` bytes, made at the first cut). */
  let closers: Uint8Array | null = null;
  let open = 0;
  let cutFrom = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      // A string: past its closing quote (UTF-8 multi-byte characters hold no ASCII byte).
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth <= maxDepth) continue;
      if (cutFrom < 0) cutFrom = i;
      closers ??= new Uint8Array(bytes.length);
      closers[open++] = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth-- <= maxDepth) continue;
      if (closers![--open] !== c) return null;
      if (open > 0) continue;
      pieces.push(bytes.subarray(copied, cutFrom), Buffer.from(c === CLOSE_BRACE ? '{}' : '[]'));
      copied = i + 1;
      cutFrom = -1;
    }
  }
  if (pieces.length === 0 || cutFrom >= 0) return null;
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
        ? invalidField(found.path.join('.'), `${fieldWords(found.path)} is not UTF-8 text${found.line ? ` at line ${found.line}` : ''}: save the file as UTF-8 and try again`)
        : invalidField('body', `The request body is not UTF-8 text (line ${decoded.line})`);
    return done(error, undefined);
  });
}

import { decodeTextFile, decodeUtf8, fieldWords, type JsonValue } from '@fleet/api-contract';
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

/**
 * JSON bodies must be UTF-8 (RFC 8259). One that is not answers a 400 naming the field whose text
 * holds the bad bytes and its line (a CSV sent as `{csv}`), read from a lenient decoding.
 */
export function installUtf8Json(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    const decoded = decodeUtf8(bytes);
    if (decoded.ok) return parseJson(req, decoded.text, done);
    let lenient: JsonValue | undefined;
    try {
      lenient = JSON.parse(bytes.toString('utf8')) as JsonValue;
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

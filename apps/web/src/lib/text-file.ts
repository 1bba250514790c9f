import { decodeTextFile } from '@fleet/api-contract/text-file';
import { ApiError } from './api-client.ts';

/**
 * A chosen file's text. File.text() turns bytes that are not UTF-8 into U+FFFD, which an import
 * would store; this refuses such a file (or one with NUL characters) at once, with the 400 the
 * API answers for it, naming the line.
 */
export async function readTextFile(file: File, field = 'file'): Promise<string> {
  const decoded = decodeTextFile(new Uint8Array(await file.arrayBuffer()));
  if (decoded.ok) return decoded.text;
  throw new ApiError(400, {
    message: `${file.name}: ${decoded.message}`,
    technicalMessage: `${field}: ${decoded.message}`,
    status: 400,
    timestamp: new Date().toISOString(),
  });
}

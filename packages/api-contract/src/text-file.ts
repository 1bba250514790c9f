// Files read as text (CSV imports, ELD output files, JSON bodies): UTF-8 or refused, never a guess.
// A lenient decoder turns bytes that are not UTF-8 (a spreadsheet saved as Windows-1252) into
// U+FFFD, and the import then stores "Montr�al" without a word (issue 43). The web app reads a
// chosen file with this before sending it, and the API decodes bodies with it, so both say which
// line is wrong.

export type DecodedText = { ok: true; text: string } | { ok: false; line: number; message: string };

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** 1 + the line feeds before `offset`. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Where the first bytes that are not UTF-8 start: re-encoding the lenient text departs from the bytes there. */
function firstInvalidOffset(bytes: Uint8Array): number {
  const again = new TextEncoder().encode(lenient.decode(bytes));
  let i = 0;
  while (i < bytes.length && again[i] === bytes[i]) i++;
  return i;
}

/** The line (1-based) of the first NUL character of a text, or 0 when it has none. */
export function nulLine(text: string): number {
  const at = text.indexOf('\u0000');
  if (at < 0) return 0;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The text of `bytes` when they are UTF-8 (a leading byte-order mark dropped), else the line of the first bytes that are not. */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const line = lineAt(bytes, firstInvalidOffset(bytes));
    return { ok: false, line, message: `Line ${line} is not UTF-8 text: save the file as UTF-8 (in a spreadsheet, "CSV UTF-8") and try again` };
  }
}

/** A text file's content: UTF-8 (see decodeUtf8) with no NUL character (a binary file chosen by mistake). */
export function decodeTextFile(bytes: Uint8Array): DecodedText {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return decoded;
  const nul = nulLine(decoded.text);
  if (nul > 0) return { ok: false, line: nul, message: `Line ${nul} contains a NUL character (U+0000): this is not a text file` };
  return decoded;
}

// Check values of the ELD output file (49 CFR 395 Appendix A 4.4.5). Each is a sum of character
// values (Table 3), cut to 8 or 16 bits, rotated left three times (a rotation: the bits that leave on
// the left come back on the right) and XORed with a constant. Public implementations get this wrong
// in three known ways, each pinned by a test: shifting instead of rotating, summing raw ASCII codes,
// and rotating the 16-bit file sum as one word instead of byte by byte.

const EVENT_XOR = 0xc3;
const LINE_XOR = 0x96;
const FILE_XOR = 0x969c;

/**
 * Table 3: `1`-`9` → 1-9, `A`-`Z` → 17-42, `a`-`z` → 49-74 (the ASCII code minus 48); every other
 * character, `0` included, counts 0.
 */
export function characterValue(char: string): number {
  const code = char.charCodeAt(0);
  const mapped = (code >= 49 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return mapped ? code - 48 : 0;
}

/** Sum of the Table 3 values of every character of `text`. */
export function checksum(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 49 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) sum += code - 48;
  }
  return sum;
}

/** Rotates an 8-bit value left by `count` bits, no carry. */
export function rotateLeft8(byte: number, count: number): number {
  const b = byte & 0xff;
  const n = count & 7;
  return ((b << n) | (b >>> (8 - n))) & 0xff;
}

function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, '0');
}

function eightBitCheck(text: string, xor: number): string {
  return hex(rotateLeft8(checksum(text) & 0xff, 3) ^ xor, 2);
}

/**
 * Event Data Check Value (4.4.5.1), 2 hex digits. `parts` are the event's fields as the file writes
 * them: event type, event code, date (MMDDYY), time (HHMMSS), vehicle miles, engine hours, latitude,
 * longitude, CMV power unit number, ELD username. Only their characters count, not their order.
 */
export function eventDataCheckValue(parts: readonly string[]): string {
  return eightBitCheck(parts.join(''), EVENT_XOR);
}

/** Line Data Check Value (4.4.5.2), 2 hex digits, over a line's text without its own check value. */
export function lineDataCheckValue(line: string): string {
  return eightBitCheck(line, LINE_XOR);
}

/**
 * File Data Check Value (4.4.5.3), 4 hex digits: the sum of every line data check value of the
 * file (as numbers), low 16 bits, each byte rotated left three times on its own, XOR 0x969C.
 */
export function fileDataCheckValue(lineCheckValues: readonly (string | number)[]): string {
  let sum = 0;
  for (const value of lineCheckValues) sum += typeof value === 'number' ? value : parseInt(value, 16);
  const total = sum & 0xffff;
  const rotated = (rotateLeft8(total >>> 8, 3) << 8) | rotateLeft8(total, 3);
  return hex(rotated ^ FILE_XOR, 4);
}

import { describe, expect, it } from 'vitest';
import { decodeTextFile, decodeUtf8 } from './text-file.ts';

const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('text files are UTF-8 or refused', () => {
  it('decodes UTF-8 (dropping a byte-order mark) and keeps a real U+FFFD', () => {
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], 'name\nMontréal �\n'))).toEqual({ ok: true, text: 'name\nMontréal �\n' });
  });

  it('names the line of the first bytes that are not UTF-8 (a Windows-1252 é on line 3)', () => {
    const r = decodeUtf8(bytes('name,city\nA,Dallas\nB,Montr', [0xe9], 'al\n'));
    expect(r).toEqual({ ok: false, line: 3, message: 'Line 3 is not UTF-8 text: save the file as UTF-8 (in a spreadsheet, "CSV UTF-8") and try again' });
    expect(decodeUtf8(bytes([0xed, 0xa0, 0x80]))).toMatchObject({ ok: false, line: 1 });
  });

  it('refuses a NUL character in a text file, naming its line', () => {
    expect(decodeTextFile(bytes('a\nb\nc\u0000\n'))).toEqual({
      ok: false,
      line: 3,
      message: 'Line 3 contains a NUL character (U+0000): this is not a text file',
    });
  });
});

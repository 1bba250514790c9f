import { describe, expect, it } from 'vitest';
import { characterValue, checksum, eventDataCheckValue, fileDataCheckValue, lineDataCheckValue, rotateLeft8 } from './check-values.ts';

// Every expected value below is worked by hand from Appendix A 4.4.5 and Table 3; the comments show
// the arithmetic so a reader can check it without running anything.

describe('character mapping (Table 3)', () => {
  it('maps digits 1-9 to 1-9 and the digit 0 to 0', () => {
    expect(['0', '1', '5', '9'].map(characterValue)).toEqual([0, 1, 5, 9]);
  });

  it('maps capital letters to 17-42 and small letters to 49-74, not to their ASCII codes', () => {
    expect(['A', 'B', 'Z', 'a', 'z'].map(characterValue)).toEqual([17, 18, 42, 49, 74]);
  });

  it('maps punctuation and spaces to 0', () => {
    expect([',', '.', '-', ' ', ':', ';', '_', '/', '@'].map(characterValue)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('sums the mapped values of a text', () => {
    // 1 + D(20) + Khan(27+49+56+62=194) + Dilawar(20+57+60+49+71+49+66=372) = 587
    expect(checksum('1,D,Khan,Dilawar')).toBe(587);
  });
});

describe('rotation', () => {
  it('brings the bits that leave on the left back on the right', () => {
    expect(rotateLeft8(0b1000_0001, 1)).toBe(0b0000_0011);
    expect(rotateLeft8(0x4b, 3)).toBe(0x5a); // 0100 1011 → 0101 1010
    expect(rotateLeft8(0xe0, 3)).toBe(0x07); // 1110 0000 → 0000 0111
  });
});

describe('line data check value (4.4.5.2)', () => {
  it('rotates the low byte of the sum left three times and XORs it with 0x96', () => {
    // 587 = 0x24B, low byte 0x4B = 0100 1011; rotated 0101 1010 = 0x5A; 0x5A ^ 0x96 = 0xCC.
    // Shifting instead of rotating gives 0x58 ^ 0x96 = CE; summing ASCII codes (1343, low byte 0x3F)
    // gives 6F. CC is also the value a published third-party sample file carries for this line.
    expect(lineDataCheckValue('1,D,Khan,Dilawar')).toBe('CC');
  });

  it('keeps only the low 8 bits of a sum of 256 or more', () => {
    // zzzz = 4 × 74 = 296 = 0x128 → 0x28 = 0010 1000 → 0100 0001 = 0x41 → ^0x96 = 0xD7
    expect(lineDataCheckValue('zzzz')).toBe('D7');
  });

  it('gives 96 for a line of empty fields, such as the header line of a file without co-driver', () => {
    expect(lineDataCheckValue(',,')).toBe('96');
  });

  it('writes two hex digits even when the value is below 0x10', () => {
    // zzn = 74 + 74 + 62 = 210 = 1101 0010 → rotated 1001 0110 = 0x96 → ^0x96 = 0x00
    expect(lineDataCheckValue('zzn')).toBe('00');
  });

  it('agrees with the line check values of a published third-party sample file', () => {
    expect(lineDataCheckValue('Khan,Dilawar,UN1997,CA,J1306197')).toBe('F1');
    expect(lineDataCheckValue('1997,1GKKRNED3FJ160937,')).toBe('66');
    expect(lineDataCheckValue('32328,JRT Industry staging,7,000000,06')).toBe('61');
    expect(lineDataCheckValue('1,1997,1GKKRNED3FJ160937')).toBe('6E');
  });
});

describe('event data check value (4.4.5.1)', () => {
  it('sums the ten listed fields and rotates and XORs with 0xC3', () => {
    // type 1, code 3, 060126 (0+6+0+1+2+6=15), 143000 (8), miles 12 (3), hours 1.5 (6),
    // 41.88 (21), -87.63 (24), unit 101 (2), jdoe (58+52+63+53=226): 1+3+15+8+3+6+21+24+2+226 = 309
    // 309 = 0x135 → 0x35 = 0011 0101 → 1010 1001 = 0xA9 → ^0xC3 = 0x6A
    expect(eventDataCheckValue(['1', '3', '060126', '143000', '12', '1.5', '41.88', '-87.63', '101', 'jdoe'])).toBe('6A');
  });

  it('counts position markers X, M and E as letters', () => {
    // X = 40 twice; type 1 code 1 → 2; 80 + 2 = 82 = 0101 0010 → 1001 0010 = 0x92 → ^0xC3 = 0x51
    expect(eventDataCheckValue(['1', '1', '', '', '', '', 'X', 'X', '', ''])).toBe('51');
  });
});

describe('file data check value (4.4.5.3)', () => {
  it('XORs a zero sum with 0x969C', () => {
    expect(fileDataCheckValue([])).toBe('969C');
  });

  it('rotates each byte of the 16-bit sum on its own, with no carry between the bytes', () => {
    // F0 + F0 = 0x01E0: high 0x01 → 0x08, low 0xE0 → 0x07; 0x0807 ^ 0x969C = 0x9E9B.
    // Rotating the 16 bits as one word would give 0x0F00 ^ 0x969C = 999C.
    expect(fileDataCheckValue(['F0', 'F0'])).toBe('9E9B');
  });

  it('keeps only the low 16 bits of the sum', () => {
    // 258 × 0xFF = 0x100FE → 0x00FE; low 1111 1110 → 1111 0111 = 0xF7; 0x00F7 ^ 0x969C = 0x966B
    expect(fileDataCheckValue(Array<number>(258).fill(0xff))).toBe('966B');
  });

  it('writes four hex digits even when the value is zero', () => {
    // 211 × 0xFF + 0x66 = 0xD293; 0xD2 → 0x96 and 0x93 → 0x9C, so the XOR leaves 0x0000
    expect(fileDataCheckValue([...Array<string>(211).fill('FF'), '66'])).toBe('0000');
  });

  it('accepts the line check values as hex text or as numbers', () => {
    expect(fileDataCheckValue(['CC', '96'])).toBe(fileDataCheckValue([0xcc, 0x96]));
  });
});

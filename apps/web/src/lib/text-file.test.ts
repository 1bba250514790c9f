// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { readTextFile } from './text-file.ts';

describe('reading a chosen file as text', () => {
  it('gives the text of a UTF-8 file', async () => {
    expect(await readTextFile(new File(['Unit number\nMontréal 1\n'], 'trailers.csv'))).toBe('Unit number\nMontréal 1\n');
  });

  it('refuses a Windows-1252 file with the 400 the API answers, naming the file and the line', async () => {
    const file = new File([new TextEncoder().encode('Unit number\nT1\nMontr'), new Uint8Array([0xe9]), 'al\n'], 'trailers.csv');
    const err = await readTextFile(file, 'csv').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^trailers\.csv: Line 3 is not UTF-8 text/),
      technicalMessage: expect.stringMatching(/^csv: Line 3/),
    });
  });
});

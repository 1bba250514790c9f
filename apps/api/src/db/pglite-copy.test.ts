import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryCopyReader, copyBinary, float4Reader, sqlLiteral, timestamptzMs } from './pglite-copy.ts';

// The binary COPY path must read back exactly what the text path reads: each case asks the engine
// for a value's text and its binary form and compares.
describe('PGlite binary COPY reading', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
  });
  afterAll(async () => {
    await pg.close();
  });

  it('reads rows, fields and NULLs of a binary COPY stream', async () => {
    const reader = new BinaryCopyReader(await copyBinary(pg, `select * from (values (1::int4, 'a'::text), (null, 'bc')) v(n, s)`));
    const rows: (number | string | null)[][] = [];
    for (let fields = reader.row(); fields !== -1; fields = reader.row()) {
      expect(fields).toBe(2);
      const n = reader.field() < 0 ? null : reader.view.getInt32(reader.offset);
      const len = reader.field();
      rows.push([n, new TextDecoder().decode(new Uint8Array(reader.view.buffer, reader.view.byteOffset + reader.offset, len))]);
    }
    expect(rows).toEqual([
      [1, 'a'],
      [null, 'bc'],
    ]);
  });

  it('rejects bytes that are not a binary COPY stream', () => {
    expect(() => new BinaryCopyReader(new Uint8Array(40))).toThrow(/not a binary COPY/);
  });

  it('reads float4 values as their shortest text parses, powers of two and extremes included', async () => {
    const values = ['95.12', '0', '-0', '0.1', '1e-05', '3.4028235e+38', '1.1754944e-38', '1.4e-45', '16777217', '103.0', '-87.65', 'NaN', 'Infinity'];
    for (let e = -149; e <= 127; e += 3) values.push(String(2 ** e));
    for (let i = 0; i < 300; i++) values.push((Math.sin(i) * 10 ** ((i % 12) - 4)).toPrecision(1 + (i % 9)));
    const list = `array[${values.map((v) => `'${v}'::float4`).join(',')}]`;
    const text = await pg.query<{ t: string }>(`select unnest(${list})::text as t`);
    const reader = new BinaryCopyReader(await copyBinary(pg, `select unnest(${list})`));
    const float4 = float4Reader();
    const got: number[] = [];
    while (reader.row() === 1) {
      reader.field();
      got.push(float4(reader.view, reader.offset));
    }
    expect(got).toEqual(text.rows.map((r) => Number(r.t)));
  });

  it('turns timestamptz into epoch milliseconds exactly as (date_part(epoch) * 1000)::int8 does', async () => {
    const times = [
      '2026-10-15 00:00:00+00',
      '2026-10-15 12:34:56.789+00',
      '2026-10-15 12:34:56.0005+00',
      '2026-10-15 12:34:56.0015+00',
      '2026-10-15 12:34:56.999999+00',
      '1999-12-31 23:59:59.9995+00',
      '1970-01-01 00:00:00+00',
      '1969-07-20 20:17:40.0025+00',
    ];
    const list = `array[${times.map((t) => `'${t}'::timestamptz`).join(',')}]`;
    const text = await pg.query<{ ms: string }>(`select ((date_part('epoch', t) * 1000)::int8)::text as ms from unnest(${list}) t`);
    const reader = new BinaryCopyReader(await copyBinary(pg, `select unnest(${list})`));
    const got: number[] = [];
    while (reader.row() === 1) {
      reader.field();
      got.push(timestamptzMs(reader.view, reader.offset));
    }
    expect(got).toEqual(text.rows.map((r) => Number(r.ms)));
  });

  it('quotes literals so a value cannot end them', async () => {
    const nasty = `x' or '1'='1 \\' --`;
    const r = await pg.query<{ v: string }>(`select ${sqlLiteral(nasty)} as v`);
    expect(r.rows[0]!.v).toBe(nasty);
    expect(() => sqlLiteral('a\0b')).toThrow();
  });
});

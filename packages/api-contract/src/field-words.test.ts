import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { assetInputSchema, vehicleInputSchema } from './assets.ts';
import { createOrganizationSchema } from './organizations.ts';
import { defineLabels, declaredLabel, fieldWords } from './field-words.ts';
import { driverInputSchema } from './drivers.ts';
import { pageQuerySchema } from './paging.ts';
import { orgIdParams } from './users.ts';
import { groupAssetsInputSchema } from './groups.ts';

const words = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('validation messages in words', () => {
  it('names every bad field of a body by its label, never with zod text', () => {
    const out = words(assetInputSchema, { type: 'VEHICLE', unitNumber: 'U'.repeat(33), make: 'M'.repeat(61), year: 'soon', iftaQualified: 'yes' });
    expect(out).toEqual({
      unitNumber: 'Unit number must be at most 32 characters',
      vin: 'VIN is a required field',
      make: 'Make must be at most 60 characters',
      year: 'Year must be a number',
      iftaQualified: 'IFTA qualified must be true or false',
    });
  });

  it('words e-mail, id and nested fields', () => {
    expect(words(driverInputSchema, { firstName: 'A', lastName: 'B', licenseNumber: 'X1', licenseState: 'TX', email: 'nope', userId: 'me' })).toEqual({
      email: 'Email must be a valid email address',
      userId: 'Sign-in account must be a user id',
    });
    const org = words(createOrganizationSchema, { name: 'X', timeZone: 'America/Chicago', admin: { email: 'no', firstName: 'A' } });
    expect(org).toEqual({ 'admin.email': 'Admin email must be a valid email address', 'admin.lastName': 'Admin last name is a required field' });
    expect(words(groupAssetsInputSchema, { assetIds: ['x'] })).toEqual({ 'assetIds.0': 'Vehicles and trailers (item 1) must be an id' });
  });

  it('words query and path parameters by their names, stating a number rule whole', () => {
    expect(words(pageQuerySchema, { page: '-1', size: 'big' })).toEqual({
      page: 'page must be a whole number of 0 or more',
      size: 'size must be a whole number from 1 to 500',
    });
    expect(words(pageQuerySchema, { page: '1.5' })).toEqual({ page: 'page must be a whole number of 0 or more' });
    expect(words(orgIdParams, { orgId: 'abc' })).toEqual({ orgId: 'orgId must be an id' });
  });

  it('keeps a message a schema writes itself', () => {
    expect(words(vehicleInputSchema, { type: 'VEHICLE', unitNumber: '117', vin: '1HGCM8263' })).toEqual({ vin: 'VIN must be exactly 17 characters' });
  });

  it('words numbers with one or two bounds, exclusive or not', () => {
    const schema = z.object({
      a: z.number().positive(),
      b: z.number().max(40),
      c: z.number().gt(0).lte(40),
      d: z.number().multipleOf(5),
      e: z.enum(['X', 'Y']),
      f: z.array(z.string()).min(1),
    });
    expect(words(schema, { a: 0, b: 41, c: 50, d: 7, e: 'Z', f: [] })).toEqual({
      a: 'a must be a number greater than 0',
      b: 'b must be a number of 40 or less',
      c: 'c must be a number greater than 0 and 40 or less',
      d: 'd must be a multiple of 5',
      e: 'e must be one of X or Y',
      f: 'f must list at least one item',
    });
  });

  it('refuses one field name labelled two ways', () => {
    defineLabels({ fieldWordsTestOnly: 'First words' });
    expect(() => defineLabels({ fieldWordsTestOnly: 'Other words' })).toThrow(/labelled both/);
    expect(declaredLabel(['fieldWordsTestOnly'])).toBe('First words');
    expect(fieldWords(['list', 2])).toBe('list (item 3)');
  });
});

describe('an empty required field', () => {
  it('gets one message, not also its pattern or length rules', () => {
    expect(words(vehicleInputSchema, { type: 'VEHICLE', unitNumber: '  ', vin: '1HGCM82633A004352' })).toEqual({
      unitNumber: 'Unit number is a required field',
    });
  });
});

describe('a required choice left empty', () => {
  it('reads as required, not as a bad code', () => {
    expect(words(driverInputSchema, { firstName: 'A', lastName: 'B', licenseNumber: 'X1', licenseState: '' })).toEqual({
      licenseState: 'Licence state is a required field',
    });
  });
});

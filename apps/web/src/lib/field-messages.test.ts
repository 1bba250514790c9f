// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fieldMessages } from './registry-api.ts';

describe('field messages of an error', () => {
  it('pairs each path with its words, nested paths and semicolons in the words included', () => {
    expect(fieldMessages('vin: VIN is a required field; admin.email: Admin email must be a valid email address; csv: Unknown column x; use A, B')).toEqual([
      { path: 'vin', message: 'VIN is a required field' },
      { path: 'admin.email', message: 'Admin email must be a valid email address' },
      { path: 'csv', message: 'Unknown column x; use A, B' },
    ]);
  });

  it('finds none in a technical message without paths', () => {
    expect(fieldMessages('Unique value already used')).toEqual([]);
  });
});

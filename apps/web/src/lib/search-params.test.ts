// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withParams } from './search-params.ts';

describe('withParams', () => {
  it('sets and removes keys in place, keeps the others, and drops the page key when named', () => {
    const prev = new URLSearchParams('status=ACTIVE&page=3&group=g1');
    expect(withParams(prev, { status: 'INACTIVE', group: null }, 'page').toString()).toBe('status=INACTIVE');
    expect(withParams(prev, { search: 'ab' }).toString()).toBe('status=ACTIVE&page=3&group=g1&search=ab');
    expect(withParams(prev, { status: '' }).toString()).toBe('page=3&group=g1');
    expect(prev.toString()).toBe('status=ACTIVE&page=3&group=g1');
  });
});

import { describe, expect, it } from 'vitest';
import { loadMallocTrim } from './malloc-trim.ts';

describe('malloc trim', () => {
  it.runIf(process.platform === 'linux')('calls glibc on Linux, and returns', () => {
    const trim = loadMallocTrim();
    expect(trim).toBeTypeOf('function');
    expect(trim?.()).toBeUndefined();
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { togglePermission } from './permission-toggle.ts';

describe('togglePermission (role checklist dependencies)', () => {
  it('ticking a code ticks everything it requires, transitively', () => {
    expect(togglePermission([], 'GAT_UPDATE', true).sort()).toEqual(['GAT_LIST', 'GAT_READ', 'GAT_UPDATE']);
    expect(togglePermission(['HOS_LIST'], 'USER_CREATE', true).sort()).toEqual(['HOS_LIST', 'ROLE_LIST', 'USER_CREATE', 'USER_LIST', 'USER_READ']);
  });

  it('unticking a code unticks every code that needs it, and nothing else', () => {
    const all = togglePermission(togglePermission(['VIO_LIST'], 'GAT_UPDATE', true), 'GAT_PAIR', true);
    expect(togglePermission(all, 'GAT_LIST', false).sort()).toEqual(['ASSET_LIST', 'VIO_LIST']);
    expect(togglePermission(all, 'GAT_READ', false).sort()).toEqual(['ASSET_LIST', 'GAT_LIST', 'GAT_PAIR', 'VIO_LIST']);
  });

  it('unticking a code nobody needs removes only it', () => {
    expect(togglePermission(['ORG_READ', 'ORG_UPDATE'], 'ORG_UPDATE', false)).toEqual(['ORG_READ']);
  });
});

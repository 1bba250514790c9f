// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS } from '@fleet/api-contract/notifications';
import { ICONS } from './server-notification-card.tsx';

describe('notification icons', () => {
  it('draws every kind of the contract with its own icon, not the fallback bell', () => {
    const missing = NOTIFICATION_KINDS.filter((k) => !ICONS[NOTIFICATION_KIND_INFO[k].iconName]);
    expect(missing).toEqual([]);
  });
});

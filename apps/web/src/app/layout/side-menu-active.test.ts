import { describe, expect, it } from 'vitest';
import { SIDE_MENU } from '../menu.ts';
import { containsActive, isLeafActive } from './side-menu-active.ts';

const analytics = SIDE_MENU.find((i) => i.title === 'Analytics')!;
const fuel = analytics.subSectionItems!.find((i) => i.path === '/fuel-transactions')!;

describe('side menu marks', () => {
  it('marks Fuel transactions on its Fuel level tab, which has its own path', () => {
    expect(isLeafActive('/fuel-events', fuel)).toBe(true);
    expect(containsActive('/fuel-events', analytics)).toBe(true);
  });
  it('marks no other leaf there', () => {
    const others = analytics.subSectionItems!.filter((i) => i !== fuel);
    expect(others.some((i) => isLeafActive('/fuel-events', i))).toBe(false);
    expect(isLeafActive('/fuel-events-x', fuel)).toBe(false);
  });
});

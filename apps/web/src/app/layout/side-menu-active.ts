import type { MenuItem } from '../menu.ts';

const isActive = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/** The item is the current screen's or holds it (the side menu marks and opens it). */
export const containsActive = (pathname: string, item: MenuItem): boolean =>
  isActive(pathname, item.path) || !!item.subSectionItems?.some((s) => containsActive(pathname, s));

import type { MenuItem } from '../menu.ts';

const isActive = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/** The leaf is the current screen: its own path, or a screen it stands for (a tab at its own path). */
export const isLeafActive = (pathname: string, item: MenuItem): boolean => pathname === item.path || !!item.alsoActiveOn?.includes(pathname);

/** The item is the current screen's or holds it (the side menu marks and opens it). */
export const containsActive = (pathname: string, item: MenuItem): boolean =>
  isActive(pathname, item.path) || !!item.alsoActiveOn?.some((p) => isActive(pathname, p)) || !!item.subSectionItems?.some((s) => containsActive(pathname, s));

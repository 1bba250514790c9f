import { createStore, useStore } from './create-store.ts';
import { local, STORAGE_KEYS } from './storage.ts';

/** Spec section 4: four types; viewed is the default. */
export type NotificationType = 'viewed' | 'alert' | 'not-viewed' | 'success';

export interface AppNotification {
  /** Derived from the content unless given, so the same message is not stacked twice. */
  id: string;
  title: string;
  category?: string;
  receivedDate?: string;
  isExpanded: boolean;
  isClosable: boolean;
  expandedContent?: string;
  expandedButton?: { label: string; href: string };
  type: NotificationType;
  iconName?: string;
  avatarUrl?: string;
  user?: { firstName: string; lastName: string };
  /** Milliseconds before it closes itself; 0 (the default) means never. */
  timeout: number;
  /** Remembered in localStorage once shown, and never shown again. */
  showOnce: boolean;
}

export type NewNotification = Partial<Omit<AppNotification, 'title'>> & { title: string };

export const notificationsStore = createStore<AppNotification[]>([]);
const timers = new Map<string, ReturnType<typeof setTimeout>>();

/** A short stable hash of the visible content (FNV-1a). */
export function notificationId(n: Pick<AppNotification, 'title'> & Partial<AppNotification>): string {
  const text = [n.type ?? '', n.title, n.category ?? '', n.expandedContent ?? '', n.receivedDate ?? ''].join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `n${(h >>> 0).toString(36)}`;
}

function shownOnceIds(): string[] {
  return local.getJson<string[]>(STORAGE_KEYS.shownOnce) ?? [];
}

/** Adds a notification; returns its id, or null when a show-once notification was already shown. */
export function notify(input: NewNotification): string | null {
  const n: AppNotification = {
    isExpanded: false,
    isClosable: true,
    type: 'viewed',
    timeout: 0,
    showOnce: false,
    ...input,
    id: input.id ?? notificationId(input),
  };
  if (n.showOnce) {
    const seen = shownOnceIds();
    if (seen.includes(n.id)) return null;
    local.setJson(STORAGE_KEYS.shownOnce, [...seen, n.id].slice(-200));
  }
  notificationsStore.set((list) => [n, ...list.filter((x) => x.id !== n.id)]);
  if (n.timeout > 0) {
    clearTimeout(timers.get(n.id));
    timers.set(
      n.id,
      setTimeout(() => removeNotification(n.id), n.timeout),
    );
  }
  return n.id;
}

export function removeNotification(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  notificationsStore.set((list) => (list.some((n) => n.id === id) ? list.filter((n) => n.id !== id) : list));
}

export function clearNotifications(): void {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  notificationsStore.set([]);
}

export function toggleNotification(id: string): void {
  notificationsStore.set((list) => list.map((n) => (n.id === id ? { ...n, isExpanded: !n.isExpanded } : n)));
}

export function useNotifications(): AppNotification[] {
  return useStore(notificationsStore);
}

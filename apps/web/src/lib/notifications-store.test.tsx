import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { clearNotifications, notificationsStore, notify, removeNotification } from './notifications-store.ts';
import { NotificationToasts } from '../components/notification-toasts.tsx';
import { renderWithTheme } from '../test/render.tsx';
import { act } from 'react';

afterEach(() => {
  clearNotifications();
  vi.useRealTimers();
});

describe('notification store', () => {
  it('defaults to the viewed type, closable, no timeout', () => {
    const id = notify({ title: 'Hello' });
    expect(notificationsStore.get()).toEqual([
      expect.objectContaining({ id, title: 'Hello', type: 'viewed', isClosable: true, isExpanded: false, timeout: 0, showOnce: false }),
    ]);
  });

  it('derives the id from the content, so the same message is not stacked twice', () => {
    const a = notify({ title: 'Disk full', type: 'alert' });
    const b = notify({ title: 'Disk full', type: 'alert' });
    const c = notify({ title: 'Disk full', type: 'success' });
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(notificationsStore.get()).toHaveLength(2);
  });

  it('removes by id and clears all', () => {
    const a = notify({ title: 'A' })!;
    notify({ title: 'B' });
    removeNotification(a);
    expect(notificationsStore.get().map((n) => n.title)).toEqual(['B']);
    clearNotifications();
    expect(notificationsStore.get()).toEqual([]);
  });

  it('closes itself after its timeout, and never when the timeout is 0', () => {
    vi.useFakeTimers();
    notify({ title: 'Saved', timeout: 4000 });
    notify({ title: 'Sticky' });
    vi.advanceTimersByTime(3999);
    expect(notificationsStore.get()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(notificationsStore.get().map((n) => n.title)).toEqual(['Sticky']);
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(notificationsStore.get()).toHaveLength(1);
  });

  it('remembers a show-once notification in localStorage and does not show it again', () => {
    expect(notify({ title: 'Welcome to Fleetline', showOnce: true })).not.toBeNull();
    clearNotifications();
    expect(notify({ title: 'Welcome to Fleetline', showOnce: true })).toBeNull();
    expect(notificationsStore.get()).toEqual([]);
    expect(localStorage.getItem('fleet.notificationsShownOnce')).toContain('n');
  });

  it('expands and collapses a not-closable one by click or Enter, and removes a closable one on close', () => {
    renderWithTheme(<NotificationToasts />);
    act(() => {
      notify({ title: 'Driver over 11 hours', expandedContent: 'Marco Reyes drove 11 h 20 min', isClosable: false, type: 'alert' });
    });
    const toggle = screen.getByRole('button', { name: /Driver over 11 hours/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(toggle, { key: 'Enter' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Close notification' })).toBeNull();

    act(() => {
      notify({ title: 'Closable one' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByText('Closable one')).toBeNull();
    expect(screen.getByText('Driver over 11 hours')).toBeInTheDocument();
  });
});

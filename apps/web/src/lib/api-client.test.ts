import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, NetworkError, setSessionExpiredHandler, describeError } from './api-client.ts';
import { sessionStore, signIn } from './auth-store.ts';
import { clearNotifications, notificationsStore } from './notifications-store.ts';
import { toQueryString } from './query-string.ts';
import { adminUser } from '../test/fixtures.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const errorBody = (status: number, message: string, technicalMessage = 'details') => ({
  message,
  technicalMessage,
  status,
  timestamp: '2026-03-04T12:00:00.000Z',
});

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  signIn({ user: adminUser(), accessToken: 'old-access', refreshToken: 'refresh-1' });
  clearNotifications();
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearNotifications();
});

const authHeader = (call: unknown[]) => ((call[1] as RequestInit).headers as Record<string, string>).authorization;

describe('API client', () => {
  it('prefixes /api/v1, sends JSON with the bearer token, and repeats array keys without brackets', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ok: true }));
    await api('/organizations/o/assets', { query: { id: ['a', 'b'], size: 15, search: '' } });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/organizations/o/assets?id=a&id=b&size=15');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer old-access');
    expect(toQueryString({ a: [1, 2], b: undefined })).toBe('?a=1&a=2');
  });

  it('refreshes once for concurrent 401s and retries each request with the new token', async () => {
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).authorization;
      if (url.endsWith('/auth/refresh-token')) {
        expect(auth).toBe('Bearer refresh-1');
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { accessToken: 'new-access', refreshToken: 'refresh-2' });
      }
      return auth === 'Bearer new-access' ? json(200, { url }) : json(401, errorBody(401, 'Unauthorized'));
    });
    const results = await Promise.all([api('/a'), api('/b'), api('/c')]);
    expect(results).toEqual([{ url: '/api/v1/a' }, { url: '/api/v1/b' }, { url: '/api/v1/c' }]);
    const refreshCalls = fetchMock.mock.calls.filter((c) => String(c[0]).endsWith('/auth/refresh-token'));
    expect(refreshCalls).toHaveLength(1);
    expect(sessionStore.get()).toMatchObject({ accessToken: 'new-access', refreshToken: 'refresh-2' });
    expect(localStorage.getItem('fleet.refreshToken')).toBe('refresh-2');
    expect(notificationsStore.get()).toEqual([]);
  });

  it('logs out when the refresh fails, without a toast', async () => {
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    fetchMock.mockImplementation(async (url: string) =>
      url.endsWith('/auth/refresh-token') ? json(401, errorBody(401, 'Session expired')) : json(401, errorBody(401, 'Unauthorized')),
    );
    await expect(api('/a')).rejects.toMatchObject({ status: 401 });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2); // the call and one refresh, no retry
    expect(notificationsStore.get()).toEqual([]);
  });

  it('does not refresh or retry public calls (a failed login stays a plain 401)', async () => {
    fetchMock.mockResolvedValue(json(401, errorBody(401, 'Wrong email or password')));
    await expect(api('/auth/authenticate', { method: 'POST', body: {}, auth: false, toast: false })).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(authHeader(fetchMock.mock.calls[0]!)).toBeUndefined();
  });

  it('shows an error toast with the server message, status, date and technical details, and still throws', async () => {
    fetchMock.mockResolvedValueOnce(json(409, errorBody(409, 'A vehicle with this VIN exists', 'unique violation on vin')));
    const err = await api('/x', { method: 'POST', body: { a: 1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body?.message).toBe('A vehicle with this VIN exists');
    expect(notificationsStore.get()).toEqual([
      expect.objectContaining({
        type: 'alert',
        title: 'A vehicle with this VIN exists',
        category: '409',
        expandedContent: 'unique violation on vin',
        receivedDate: expect.stringMatching(/^03\/04\/26 /),
      }),
    ]);
  });

  it('shows the network-failure toast when there is no answer', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api('/x')).rejects.toBeInstanceOf(NetworkError);
    expect(notificationsStore.get()).toEqual([
      expect.objectContaining({ title: 'Oops, something happened, please try again', category: 'If this error keeps happening, please report it' }),
    ]);
  });

  it('describes errors the spec way', () => {
    expect(describeError(new ApiError(400, errorBody(400, 'Bad', 'name: required')))).toMatchObject({ title: 'Bad', details: 'name: required', status: 400 });
    expect(describeError(new NetworkError('offline'))).toEqual({ title: 'offline' });
    expect(describeError('weird')).toEqual({ title: 'Error happened' });
  });
});

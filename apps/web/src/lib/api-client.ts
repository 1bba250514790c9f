// The readers, not the schemas: zod stays off the app's first load (issue 67).
import { readErrorBody as readBody, readTokens } from '@fleet/api-contract/answer-readers';
import type { ReceivedErrorBody } from '@fleet/api-contract/errors';
import { clearSession, sessionStore, setTokens } from './auth-store.ts';
import { notify } from './notifications-store.ts';
import { toQueryString, type QueryValue } from './query-string.ts';
import { formatDateTime } from './dates.ts';
import { isOnline } from './online.ts';

export const API_PREFIX = '/api/v1';

/** An answer with an error status; `body` is the spec's error body (with its code) when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ReceivedErrorBody | null;
  constructor(status: number, body: ReceivedErrorBody | null) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** No answer at all (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor(message = 'Network request failed') {
    super(message);
    this.name = 'NetworkError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** A plain value is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Attach the bearer token and refresh on 401 (default true). Public auth calls pass false. */
  auth?: boolean;
  /** Show the spec's error toast (default true). */
  toast?: boolean;
  /** Read the answer as a Blob (a PDF or other file) instead of JSON or text. */
  blob?: boolean;
  /** More request headers (the outbox's Idempotency-Key). */
  headers?: Record<string, string>;
}

/** Called when the session cannot be renewed; the app wires it to its logout. */
let onSessionExpired: () => void = () => clearSession();
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

/** Ends this browser's session as a failed refresh does (the server already ended it: log out everywhere). */
export function endSession(): void {
  onSessionExpired();
}

let refreshing: Promise<boolean> | null = null;

/** Spec section 4: one refresh for any number of concurrent 401s; false when it failed. */
export function refreshTokens(): Promise<boolean> {
  if (!refreshing) {
    refreshing = (async () => {
      const refreshToken = sessionStore.get().refreshToken;
      if (!refreshToken) return false;
      try {
        const res = await fetch(`${API_PREFIX}/auth/refresh-token`, {
          method: 'POST',
          headers: { authorization: `Bearer ${refreshToken}`, accept: 'application/json' },
        });
        if (!res.ok) return false;
        const tokens = readTokens(await res.json());
        if (!tokens) return false;
        setTokens(tokens);
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

async function readErrorBody(res: Response): Promise<ReceivedErrorBody | null> {
  try {
    return readBody(await res.json());
  } catch {
    return null;
  }
}

/** Spec section 8: server message as title, status as category, date from timestamp, details expandable. */
export function toastApiError(err: ApiError): void {
  if (err.status === 401) return;
  const body = err.body;
  notify({
    type: 'alert',
    title: body?.message ?? err.message,
    category: String(err.status),
    receivedDate: body ? formatDateTime(body.timestamp) : undefined,
    expandedContent: body?.technicalMessage || undefined,
    isClosable: true,
    timeout: 10_000,
  });
}

export function toastNetworkError(): void {
  // Offline, the banner says so once (layout/offline-banner.tsx) instead of a toast per request.
  if (!isOnline()) return;
  notify({
    type: 'alert',
    title: 'Oops, something happened, please try again',
    category: 'If this error keeps happening, please report it',
    isClosable: true,
    timeout: 10_000,
  });
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers, accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const token = sessionStore.get().accessToken;
  if (opts.auth !== false && token) headers.authorization = `Bearer ${token}`;
  return fetch(`${API_PREFIX}${path}${toQueryString(opts.query)}`, { method: opts.method ?? 'GET', headers, body, signal: opts.signal });
}

/**
 * The one way the web app calls the API: `/api/v1` prefix, JSON, bearer token, one retry after a
 * token refresh on 401 (logout when the refresh fails), error toasts per spec section 8.
 * Errors still propagate to the caller.
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await checkedResponse(path, opts);
  if (res.status === 204 || res.headers.get('content-length') === '0') return undefined as T;
  if (opts.blob) return (await res.blob()) as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await res.json() : await res.text()) as T;
}

/** A file the API answers (the ELD output file): its text and the name its Content-Disposition gives. */
export async function apiFile(path: string, opts: RequestOptions = {}): Promise<{ text: string; fileName: string | null }> {
  const res = await checkedResponse(path, opts);
  const disposition = res.headers.get('content-disposition') ?? '';
  return { text: await res.text(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}

async function checkedResponse(path: string, opts: RequestOptions): Promise<Response> {
  const showToast = opts.toast !== false;
  let res: Response;
  try {
    res = await send(path, opts);
    if (res.status === 401 && opts.auth !== false && sessionStore.get().refreshToken) {
      if (await refreshTokens()) res = await send(path, opts);
      else {
        onSessionExpired();
        throw new ApiError(401, await readErrorBody(res));
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (showToast) toastNetworkError();
    throw new NetworkError(err instanceof Error ? err.message : undefined);
  }
  if (!res.ok) {
    const error = new ApiError(res.status, await readErrorBody(res));
    if (res.status === 401 && opts.auth !== false && sessionStore.get().refreshToken) onSessionExpired();
    if (showToast) toastApiError(error);
    throw error;
  }
  return res;
}

/** Spec section 8, generic error display: network message, server details, or 'Error happened'. */
export function describeError(err: unknown): { title: string; details?: string; status?: number; timestamp?: string } {
  if (err instanceof ApiError && err.body) {
    return { title: err.body.message, details: err.body.technicalMessage, status: err.body.status, timestamp: err.body.timestamp };
  }
  if (err instanceof ApiError || err instanceof NetworkError) return { title: err.message };
  return { title: 'Error happened' };
}

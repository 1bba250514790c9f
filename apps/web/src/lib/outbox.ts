import { createStore as idbStore, del, entries, set, type UseStore } from 'idb-keyval';
import { ApiError, api, NetworkError } from './api-client.ts';
import { sessionStore } from './auth-store.ts';
import { createStore, useStore } from './create-store.ts';
import { isOnline } from './online.ts';
import { queryClient } from './query-client.ts';

// The records a driver makes on the phone (duty-status changes, certifications, inspections) are
// taken at once with the time they happened, kept in IndexedDB and sent in order when the network
// allows (issue 44, decision 0184). Each is sent with an Idempotency-Key the server stores with the
// record, so a resend (the answer was lost, the page reloaded mid-send) is stored once. A record the
// server can never accept (a 4xx) is kept as refused, with the server's reason, for the driver to read.

/** A file sent before its record (a DVIR photo or signature, a paper's page); its id replaces `placeholder` in the body. */
export interface OutboxUpload {
  placeholder: string;
  path: string;
  blob: Blob;
  name: string;
  /** The server's image id once uploaded (kept, so a retry does not upload it again). */
  id?: string;
}

export type OutboxKind = 'STATUS' | 'CERTIFY' | 'DVIR' | 'MESSAGE' | 'PROPOSAL' | 'CLAIM' | 'LOG_HEADER' | 'STOP' | 'DOCUMENT';

export interface OutboxRecord {
  /** The Idempotency-Key. */
  id: string;
  /** Order taken (sent in this order). */
  seq: number;
  userId: string;
  kind: OutboxKind;
  /** Epoch ms the driver made it. */
  madeAt: number;
  /** What it is, for the driver's list ("Sleeper berth"). */
  label: string;
  /** POST by default; PUT for a record that sets values (a log day's header), the same when resent. */
  method?: 'POST' | 'PUT';
  path: string;
  body: unknown;
  uploads: OutboxUpload[];
  state: 'WAITING' | 'REFUSED' | 'SENT';
  reason?: string;
  /** The refusal's error code and params (decision 0257): the banner words it in the driver's language. */
  reasonCode?: string | undefined;
  reasonParams?: Record<string, string | number> | undefined;
  /** When the server took it (state SENT): screens whose last answer is older still show it. */
  sentAt?: number;
}

export interface OutboxState {
  records: OutboxRecord[];
  /** Loaded from IndexedDB (the banner waits for it). */
  loaded: boolean;
  sending: boolean;
  /** When the last batch was sent, and how many: the banner's "Sent". */
  sent: { at: number; count: number } | null;
}

export const outboxStore = createStore<OutboxState>({ records: [], loaded: false, sending: false, sent: null });

/** How long to wait before trying again after the network failed a send. */
const RETRY_MS = 15_000;
/** How long a sent record stays in memory for the screens that have not yet read it back. */
const SENT_KEPT_MS = 10 * 60_000;

let db: UseStore | null = null;
const store = (): UseStore => (db ??= idbStore('fleetline-outbox', 'records'));

/** A random key (crypto.randomUUID needs a secure context; a phone on a LAN address has none). */
export function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const update = (fn: (s: OutboxState) => OutboxState) => outboxStore.set(fn);
const replace = (r: OutboxRecord) => update((s) => ({ ...s, records: s.records.map((x) => (x.id === r.id ? r : x)) }));

/** Reads what an earlier page left waiting, then sends it if it can. */
export async function loadOutbox(): Promise<void> {
  try {
    const rows = (await entries<string, OutboxRecord>(store())).map(([, r]) => r).sort((a, b) => a.seq - b.seq);
    update((s) => ({ ...s, loaded: true, records: [...rows, ...s.records.filter((r) => !rows.some((x) => x.id === r.id))] }));
  } catch {
    // No IndexedDB (a private window in an old browser): records are kept in memory only.
    update((s) => ({ ...s, loaded: true }));
  }
  void flushOutbox();
}

async function persist(r: OutboxRecord): Promise<void> {
  try {
    await set(r.id, r, store());
  } catch {
    // Kept in memory (see loadOutbox).
  }
}

async function forget(id: string): Promise<void> {
  try {
    await del(id, store());
  } catch {
    // Kept in memory only.
  }
}

/** Keeps a record on the phone (IndexedDB first, so a reload or a killed tab loses nothing). */
export async function takeRecord(
  r: Pick<OutboxRecord, 'kind' | 'madeAt' | 'label' | 'path' | 'body' | 'method'> & { uploads?: OutboxUpload[]; id?: string },
): Promise<OutboxRecord> {
  const userId = sessionStore.get().user?.id ?? '';
  const seq = Math.max(Date.now(), ...outboxStore.get().records.map((x) => x.seq + 1));
  const record: OutboxRecord = { uploads: [], state: 'WAITING', ...r, id: r.id ?? newKey(), seq, userId };
  await persist(record);
  update((s) => ({ ...s, records: [...s.records, record] }));
  return record;
}

/** The outcome of a record sent at once: the server's answer, or kept to be sent later. */
export type Sent<T> = { sent: true; result: T } | { sent: false };

const results = new Map<string, unknown>();

/**
 * Takes a record and sends it (after any waiting before it) when the phone is online. Answers the
 * server's result; `{ sent: false }` when it waits for the network. A record the server refuses is
 * dropped and its ApiError thrown, for the screen that made it to show.
 */
export async function sendRecord<T>(r: Parameters<typeof takeRecord>[0]): Promise<Sent<T>> {
  const record = await takeRecord(r);
  await flushOutbox();
  const now = outboxStore.get().records.find((x) => x.id === record.id);
  if (!now || now.state === 'SENT') {
    const result = results.get(record.id) as T;
    results.delete(record.id);
    return { sent: true, result };
  }
  if (now.state === 'REFUSED') {
    const refusal = refusals.get(now.id) ?? new ApiError(400, null);
    await dismissRecord(now.id);
    throw refusal;
  }
  return { sent: false };
}

const refusals = new Map<string, ApiError>();

/** The driver read a refused record's reason: it goes. */
export async function dismissRecord(id: string): Promise<void> {
  await forget(id);
  refusals.delete(id);
  update((s) => ({ ...s, records: s.records.filter((x) => x.id !== id) }));
}

let flushing: Promise<void> | null = null;
let again = false;
let retry: ReturnType<typeof setTimeout> | null = null;

/**
 * Sends the signed-in user's waiting records in order; one run at a time. Asked during a run, the
 * run goes round once more, so a record taken at any moment of it is sent by it.
 */
export function flushOutbox(): Promise<void> {
  if (flushing) {
    again = true;
    return flushing;
  }
  flushing = (async () => {
    do {
      again = false;
      await flush();
    } while (again);
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function flush(): Promise<void> {
  const userId = sessionStore.get().user?.id;
  if (!userId || !isOnline()) return;
  const next = (tried: Set<string>) => outboxStore.get().records.find((r) => r.state === 'WAITING' && r.userId === userId && !tried.has(r.id));
  if (!next(new Set())) return;
  update((s) => ({ ...s, sending: true }));
  let sent = 0;
  // A record taken while this run sends is sent by it too, after those before it.
  const tried = new Set<string>();
  try {
    for (let r = next(tried); r; r = next(tried)) {
      tried.add(r.id);
      const outcome = await sendOne(r);
      if (outcome === 'STOP') {
        if (retry === null) retry = setTimeout(() => ((retry = null), void flushOutbox()), RETRY_MS);
        break;
      }
      if (outcome === 'SENT') sent++;
    }
  } finally {
    update((s) => ({ ...s, sending: false }));
  }
  if (sent) {
    const now = Date.now();
    // Sent records stay a while (in memory only) for the screens whose last answer predates them.
    update((s) => ({ ...s, sent: { at: now, count: sent }, records: s.records.filter((x) => x.state !== 'SENT' || (x.sentAt ?? 0) > now - SENT_KEPT_MS) }));
    // The screens read the records back; not awaited, so the one who made a record is answered at once.
    void queryClient.invalidateQueries().catch(() => undefined);
  }
}

async function sendOne(r: OutboxRecord): Promise<'SENT' | 'REFUSED' | 'STOP'> {
  const headers = { 'Idempotency-Key': r.id };
  try {
    let body = JSON.stringify(r.body);
    for (const [i, u] of r.uploads.entries()) {
      if (!u.id) {
        const form = new FormData();
        form.append('file', u.blob, u.name);
        const { id } = await api<{ id: string }>(u.path, { method: 'POST', body: form, toast: false, headers: { 'Idempotency-Key': `${r.id}.${i}` } });
        u.id = id;
        await persist(r);
      }
      body = body.split(JSON.stringify(u.placeholder)).join(JSON.stringify(u.id));
    }
    const result = await api<unknown>(r.path, { method: r.method ?? 'POST', body: JSON.parse(body) as unknown, toast: false, headers });
    results.set(r.id, result);
    await forget(r.id);
    replace({ ...r, state: 'SENT', sentAt: Date.now() });
    return 'SENT';
  } catch (err) {
    // No answer, the server failing, too many requests or an ended session: try again later.
    if (err instanceof NetworkError || !(err instanceof ApiError) || err.status >= 500 || err.status === 401 || err.status === 408 || err.status === 429)
      return 'STOP';
    const refused: OutboxRecord = {
      ...r,
      state: 'REFUSED',
      reason: err.body?.message ?? err.message,
      reasonCode: err.body?.code,
      reasonParams: err.body?.params,
    };
    refusals.set(r.id, err);
    await persist(refused);
    replace(refused);
    return 'REFUSED';
  }
}

export function useOutbox(): OutboxState {
  return useStore(outboxStore);
}

/** The signed-in user's records still on the phone (waiting or refused). */
export function ownRecords(s: OutboxState, userId: string | undefined): OutboxRecord[] {
  return s.records.filter((r) => r.userId === userId && r.state !== 'SENT');
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void flushOutbox());
  // Another tab or a sign-in: whoever is signed in now sends their own.
  sessionStore.subscribe(() => void flushOutbox());
}

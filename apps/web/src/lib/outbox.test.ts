import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { signIn } from './auth-store.ts';
import { flushOutbox, outboxStore, ownRecords, sendRecord } from './outbox.ts';
import { adminUser } from '../test/fixtures.ts';

// The phone's outbox (issue 44) with the network mocked: jsdom has no IndexedDB, so the records are
// kept in memory, which is what this checks: order, keys, refusals and waiting for the network.

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;
const user = adminUser();

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  signIn({ user, accessToken: 'a', refreshToken: 'r' });
  outboxStore.set({ records: [], loaded: true, sending: false, sent: null });
});
afterEach(() => vi.unstubAllGlobals());

const record = (label: string) => ({
  kind: 'STATUS' as const,
  madeAt: Date.now(),
  label,
  path: '/organizations/o/users/u/hos_log/l/hos_event',
  body: { status: 'SB', label },
});

describe('the outbox', () => {
  it('sends a record at once with its Idempotency-Key and answers the server', async () => {
    fetchMock.mockResolvedValueOnce(json(201, { id: 'e1' }));
    const out = await sendRecord<{ id: string }>(record('one'));
    expect(out).toEqual({ sent: true, result: { id: 'e1' } });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/organizations/o/users/u/hos_log/l/hos_event');
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ownRecords(outboxStore.get(), user.id)).toEqual([]);
  });

  it('keeps records while the network fails, then sends them in order with the same keys', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await sendRecord(record('first'))).toEqual({ sent: false });
    expect(await sendRecord(record('second'))).toEqual({ sent: false });
    const keys = fetchMock.mock.calls.map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(ownRecords(outboxStore.get(), user.id).map((r) => [r.label, r.state])).toEqual([
      ['first', 'WAITING'],
      ['second', 'WAITING'],
    ]);
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () => json(201, { id: 'x' }));
    await flushOutbox();
    const sent = fetchMock.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)).label);
    expect(sent).toEqual(['first', 'second']);
    // The first record's key is the one its failed sends carried.
    expect((fetchMock.mock.calls[0]![1] as { headers: Record<string, string> }).headers['Idempotency-Key']).toBe(keys[0]);
    expect(ownRecords(outboxStore.get(), user.id)).toEqual([]);
    expect(outboxStore.get().sent?.count).toBe(2);
  });

  it("throws the server's refusal to the screen that made the record, and keeps nothing", async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        message: 'Odometer must be 0 or more',
        technicalMessage: 'odometer: Odometer must be 0 or more',
        status: 400,
        timestamp: '2026-11-27T00:00:00Z',
      }),
    );
    const err = await sendRecord(record('bad')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body?.message).toBe('Odometer must be 0 or more');
    expect(ownRecords(outboxStore.get(), user.id)).toEqual([]);
  });

  it('lists a record refused after it waited, with the reason, and sends the ones after it', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await sendRecord(record('late'));
    await sendRecord(record('fine'));
    fetchMock.mockReset();
    fetchMock
      .mockResolvedValueOnce(
        json(400, {
          message: 'The truck was moving at 10:03',
          technicalMessage: 'recordedAt: The truck was moving at 10:03',
          status: 400,
          timestamp: '2026-11-27T00:00:00Z',
        }),
      )
      .mockResolvedValueOnce(json(201, { id: 'ok' }));
    await flushOutbox();
    expect(ownRecords(outboxStore.get(), user.id).map((r) => [r.label, r.state, r.reason])).toEqual([['late', 'REFUSED', 'The truck was moving at 10:03']]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

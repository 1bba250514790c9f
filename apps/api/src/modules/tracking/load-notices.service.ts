import { randomUUID } from 'node:crypto';
import { ACTIVE_LOAD_STATUSES, ETA_CHANGE_WEBHOOK_MINUTES, type LoadNoticeKind } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import * as notices from './load-notices.repository.ts';
import { defaultLoadExpiry } from './share-links.service.ts';
import * as repo from './tracking.repository.ts';
import { derivedToken, tokenHash, trackingUrl, unsubscribeUrl } from './tracking-tokens.ts';

// The notices to a load's contacts and the `load.eta_changed` webhook (issue 69, decision 0283), in
// one pass on the clock over what the loads module and the live ETAs already wrote: a stop's
// arrival, the load's start and delivery, each stop's live ETA. Each notice is claimed by its key
// (contact, kind, stop, step) before it is sent, so it goes once whatever restarts or how many
// instances run; a claim whose send fails is recorded FAILED and not retried (at most once, never
// twice, as the scheduled reports). Each organization is worked apart: one's failure stops no other's.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** "Arriving in about 1 hour": sent once the ETA is this close. */
export const ARRIVING_WITHIN_MS = 60 * MINUTE;
/** A fact older than this is not told any more (a contact added late, a server down for hours). */
export const NOTICE_FRESH_MS = 6 * HOUR;

export interface NoticeDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** The tracking key (trackingKey of the server's): the notices' link and unsubscribe tokens. */
  key: Buffer;
  log?: { error(o: object, m: string): void };
}

export interface NoticePassResult {
  sent: number;
  failed: number;
  /** Claimed already (sent before, or by another instance). */
  taken: number;
  etaChanges: number;
  /** Organizations whose part of the pass failed. */
  failedOrganizations: number;
}

interface Due {
  kind: LoadNoticeKind;
  stopSeq: number;
  step: number;
  stop: StopRow | null;
}
type StopRow = Awaited<ReturnType<typeof repo.stopsOf>>[number];
type LoadRow = NonNullable<Awaited<ReturnType<typeof repo.loadOf>>>;

/** What is due to tell about a load now, whoever chose it. */
export function dueNotices(load: LoadRow, stops: StopRow[], startedAt: number | null, now: number): Due[] {
  const out: Due[] = [];
  const fresh = (t: number | null | undefined) => t !== null && t !== undefined && now - t <= NOTICE_FRESH_MS;
  const running = (ACTIVE_LOAD_STATUSES as readonly string[]).includes(load.status);
  if (running && startedAt !== null && fresh(startedAt)) out.push({ kind: 'LINK', stopSeq: -1, step: 0, stop: null });
  if (load.status === 'DELIVERED' && fresh(load.deliveredAt?.getTime() ?? stops.at(-1)?.stop.arrivedAt?.getTime()))
    out.push({ kind: 'DELIVERED', stopSeq: -1, step: 0, stop: null });
  for (const s of stops) {
    const st = s.stop;
    if (st.arrivedAt) {
      if (fresh(st.arrivedAt.getTime())) out.push({ kind: 'ARRIVED', stopSeq: st.seq, step: 0, stop: s });
      continue;
    }
    if (!running || !st.eta) continue;
    const eta = st.eta.getTime();
    if (eta - now <= ARRIVING_WITHIN_MS && eta > now - ARRIVING_WITHIN_MS) out.push({ kind: 'ARRIVING', stopSeq: st.seq, step: 0, stop: s });
    const late = eta - st.windowEnd.getTime();
    // Once late, and again each time it slips another full hour.
    if (late > 0) out.push({ kind: 'LATE', stopSeq: st.seq, step: Math.floor(late / HOUR), stop: s });
  }
  return out;
}

/** One pass: every organization's notices, then the ETA changes. */
export async function runLoadNotices(deps: NoticeDeps, now = Date.now()): Promise<NoticePassResult> {
  const result: NoticePassResult = { sent: 0, failed: 0, taken: 0, etaChanges: 0, failedOrganizations: 0 };
  const byOrg = new Map<string, string[]>();
  for (const { orgId, loadId } of await notices.loadsToTell(deps.db, now - NOTICE_FRESH_MS)) byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), loadId]);
  for (const [orgId, loadIds] of byOrg) {
    try {
      for (const loadId of loadIds) await tellLoad(deps, orgId, loadId, now, result);
    } catch (err) {
      result.failedOrganizations++;
      deps.log?.error({ orgId, err }, 'load notices failed for an organization');
    }
  }
  await announceEtaChanges(deps, result);
  return result;
}

async function tellLoad(deps: NoticeDeps, orgId: string, loadId: string, now: number, result: NoticePassResult): Promise<void> {
  const load = await repo.loadOf(deps.db, orgId, loadId);
  if (!load) return;
  const [stops, history, contacts] = await Promise.all([
    repo.stopsOf(deps.db, orgId, loadId),
    repo.statusHistoryOf(deps.db, orgId, loadId),
    notices.subscribedContactsOf(deps.db, orgId, loadId),
  ]);
  const started = history.find((h) => h.status === 'EN_ROUTE')?.at.getTime() ?? null;
  const due = dueNotices(load, stops, started, now);
  if (due.length === 0) return;
  let link: string | null = null;
  let org: { name: string; timeZone: string } | null = null;
  for (const d of due)
    for (const c of contacts) {
      if (!c.notices.includes(d.kind)) continue;
      const id = await notices.claimNotice(deps.db, { orgId, loadId, contactId: c.id, kind: d.kind, stopSeq: d.stopSeq, step: d.step, at: now });
      if (!id) {
        result.taken++;
        continue;
      }
      try {
        link ??= await noticeLink(deps, orgId, load, stops, now);
        org ??= (await notices.organizationZone(deps.db, orgId)) ?? { name: 'Your carrier', timeZone: 'UTC' };
        const unsubscribe = derivedToken(deps.key, 'unsubscribe', c.id);
        // Made under another server secret (JWT_SECRET rotated): the hash follows the token this e-mail carries.
        if (tokenHash(unsubscribe) !== c.unsubscribeHash) await notices.setUnsubscribeHash(deps.db, orgId, c.id, tokenHash(unsubscribe));
        await deps.mailer.send(noticeMail(d, { load, org, link, to: c.email, name: c.name, unsubscribe: unsubscribeUrl(deps.publicUrl, unsubscribe) }));
        await notices.finishNotice(deps.db, orgId, id, { sentAt: Date.now() });
        result.sent++;
      } catch (err) {
        result.failed++;
        deps.log?.error({ orgId, loadId, kind: d.kind, err }, 'load notice failed');
        await notices.finishNotice(deps.db, orgId, id, { error: (err as Error).message ?? String(err) });
      }
    }
}

/** The load's link the notices send: the one made before while it is good for an hour more, else a new one. */
async function noticeLink(deps: NoticeDeps, orgId: string, load: LoadRow, stops: StopRow[], now: number): Promise<string> {
  const had = await repo.noticeLinkOf(deps.db, orgId, load.id, now + HOUR);
  // A link made under another server secret no longer opens with the token derived now: a new one is made.
  if (had && tokenHash(derivedToken(deps.key, 'notice-link', had.id)) === had.tokenHash)
    return trackingUrl(deps.publicUrl, derivedToken(deps.key, 'notice-link', had.id));
  const id = randomUUID();
  const token = derivedToken(deps.key, 'notice-link', id);
  await repo.insertShareLink(deps.db, {
    orgId,
    id,
    kind: 'LOAD',
    loadId: load.id,
    assetId: null,
    tokenHash: tokenHash(token),
    label: 'E-mail notices',
    forNotices: true,
    expiresAt: new Date(defaultLoadExpiry(stops.at(-1)?.stop.windowEnd.getTime() ?? null, now)),
    createdAt: new Date(now),
    createdBy: null,
    createdByToken: null,
  });
  return trackingUrl(deps.publicUrl, token);
}

interface MailFacts {
  load: LoadRow;
  org: { name: string; timeZone: string };
  link: string;
  to: string;
  name: string;
  unsubscribe: string;
}

function timeText(ms: number, zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short', timeZoneName: 'short' }).format(ms);
  } catch {
    return new Date(ms).toISOString();
  }
}

/** The e-mail of one notice: what happened, the tracking link, and the one-click unsubscribe (RFC 8058). */
export function noticeMail(d: Due, f: MailFacts): MailMessage {
  const ref = f.load.poNumber ?? f.load.bolNumber;
  const what = `Load ${f.load.number}${ref ? ` (${ref})` : ''}`;
  const st = d.stop?.stop;
  const where = d.stop ? (d.stop.placeName ?? (st!.kind === 'PICKUP' ? `pick-up ${st!.seq + 1}` : `delivery ${st!.seq + 1}`)) : '';
  const eta = st?.eta ? timeText(st.eta.getTime(), f.org.timeZone) : '';
  const lines: Record<LoadNoticeKind, [string, string]> = {
    LINK: [`${what} is on its way`, `${what} from ${f.org.name} is on its way. Follow it live:`],
    ARRIVING: [`${what} arrives in about 1 hour`, `${what} is expected at ${where} in about 1 hour (${eta}). Follow it live:`],
    ARRIVED: [`${what} arrived at ${where}`, `${what} arrived at ${where} at ${st?.arrivedAt ? timeText(st.arrivedAt.getTime(), f.org.timeZone) : ''}.`],
    DELIVERED: [`${what} was delivered`, `${what} from ${f.org.name} was delivered.`],
    LATE: [
      `${what} is running late`,
      `${what} is now expected at ${where} at ${eta}, after its appointment window ending ${st ? timeText(st.windowEnd.getTime(), f.org.timeZone) : ''}. Follow it live:`,
    ],
  };
  const [subject, lead] = lines[d.kind];
  const text = [
    `Hello ${f.name},`,
    '',
    lead,
    f.link,
    '',
    `You receive this because ${f.org.name} listed you as a contact of this load.`,
    `Stop these e-mails: ${f.unsubscribe}`,
  ].join('\n');
  return {
    to: f.to,
    subject: `${subject} (${f.org.name})`,
    text,
    headers: { 'List-Unsubscribe': `<${f.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** `load.eta_changed` for each stop whose ETA moved more than 15 minutes from the one last announced; once, by the mark's move. */
async function announceEtaChanges(deps: NoticeDeps, result: NoticePassResult): Promise<void> {
  const moved = await notices.movedEtas(deps.db, ETA_CHANGE_WEBHOOK_MINUTES);
  const byOrg = new Map<string, notices.MovedEta[]>();
  for (const m of moved) byOrg.set(m.orgId, [...(byOrg.get(m.orgId) ?? []), m]);
  for (const [orgId, list] of byOrg) {
    try {
      for (const m of list) {
        if (m.announced === null) {
          await notices.markFirstEta(deps.db, { orgId, stopId: m.stopId, loadId: m.loadId, eta: m.eta });
          continue;
        }
        const previous = m.announced;
        const told = await deps.db.transaction(async (tx) => {
          if (!(await notices.moveEtaMark(tx, orgId, m.stopId, previous, m.eta))) return false;
          await emitWebhookEvents(tx, [
            {
              orgId,
              type: 'load.eta_changed',
              at: Date.now(),
              data: {
                loadId: m.loadId,
                loadNumber: m.loadNumber,
                stopId: m.stopId,
                seq: m.seq,
                kind: m.kind,
                placeName: m.placeName,
                previousEta: new Date(previous).toISOString(),
                eta: new Date(m.eta).toISOString(),
                changeMinutes: Math.round((m.eta - previous) / MINUTE),
                windowStart: new Date(m.windowStart).toISOString(),
                windowEnd: new Date(m.windowEnd).toISOString(),
                late: m.eta > m.windowEnd,
              },
            },
          ]);
          return true;
        });
        if (told) result.etaChanges++;
      }
    } catch (err) {
      result.failedOrganizations++;
      deps.log?.error({ orgId, err }, 'ETA change webhooks failed for an organization');
    }
  }
}

import { and, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { assets, engineFaults, type FaultChannel } from '../../db/schema/index.ts';
import type { Actor } from '../auth/index.ts';
import { createEngineFaultDefect, orgWording } from '../maintenance/index.ts';
import { notifyMany, type NotifyInput } from '../notifications/index.ts';
import { QueuedFollower, VehicleQueue, type PositionRow, type Round } from '../positions/index.ts';
import { describeFault } from './dtc-descriptions.ts';
import { faultReport, type FaultReport, type ReportedFault } from './fault-report.ts';
import { grounds, groundingCodesOf } from './grounding.ts';

// The engine faults of the vehicles, behind ingest (issue 46, decision 0191): each committed
// position's fault attributes open, refresh and clear the vehicle's fault episodes. A fault that
// appears notifies (ENGINE_FAULT, by each user's choices) and, when the organization's grounding
// codes name it, becomes a safety defect at once. Nothing here can refuse a position: it is stored
// before the follower sees it, and malformed fault data is counted and left out.

interface FaultFix {
  t: number;
  report: FaultReport | null;
  ignition: boolean | null;
}

/** A vehicle's ignition as its fixes told this process: an EVENT fault not sent again within an ignition cycle is cleared. */
interface IgnitionState {
  on: boolean | null;
  /** When the current cycle began (the ignition-on fix), when this process saw it begin. */
  cycleStart: number | null;
}

type Row = typeof engineFaults.$inferSelect;
interface Episode {
  row: Omit<Row, 'id' | 'createdAt'> & { id: string | null };
  dirty: boolean;
}

const SYSTEM: Actor = { userId: null, email: null, role: 'SYSTEM', ip: null };

/** Words of a time in the organization's zone: "Nov 27, 10:02 AM CST". */
const timeWords = (ms: number, tz: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
    new Date(ms),
  );

export class EngineFaults extends QueuedFollower<FaultFix> {
  protected readonly queue: VehicleQueue<FaultFix>;
  /** Since start: fault attributes left out as malformed, episodes opened and cleared, failed rounds. */
  readonly stats = { malformed: 0, opened: 0, cleared: 0, failures: 0 };
  private readonly ignition = new Map<string, IgnitionState>();
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly db: Db,
    opts: { onError(err: unknown): void; flushMs?: number },
  ) {
    super();
    this.onError = opts.onError;
    this.queue = new VehicleQueue<FaultFix>({
      fixOf: (r) => this.fixOf(r),
      pauseMs: () => opts.flushMs ?? 1000,
      byOrganization: true,
      passes: true,
      round: (items) => this.round(items[0]![1].orgId, items),
      failed: (items, err) => {
        // The positions are stored; the vehicles' next reports bring their faults up to date.
        for (const [assetId] of items) this.ignition.delete(assetId);
        this.stats.failures++;
        this.onError(err);
      },
    });
  }

  private fixOf(r: PositionRow): FaultFix {
    const report = faultReport(r.attributes);
    if (report?.malformed) this.stats.malformed += report.malformed;
    return { t: r.fixTime.getTime(), report, ignition: r.ignition };
  }

  private async round(orgId: string, items: Round<FaultFix>): Promise<void> {
    let wording: { tz: string } | null = null;
    let codes: Set<string> | null = null;
    for (const [assetId, w] of items) {
      const fixes = [...w.fixes].sort((a, b) => a.t - b.t);
      const state = this.ignition.get(assetId) ?? { on: null, cycleStart: null };
      // Without a report and without an ignition cycle ending, nothing can change: no database.
      const { after, cycleEnded } = this.advance(state, fixes);
      if (!fixes.some((f) => f.report?.channels.length) && !cycleEnded) {
        this.ignition.set(assetId, after);
        continue;
      }
      wording ??= await orgWording(this.db, orgId);
      codes ??= new Set(await groundingCodesOf(this.db, orgId));
      const next = await this.db.transaction((tx) => this.apply(tx, orgId, assetId, fixes, { ...state }, codes!, wording!.tz));
      this.ignition.set(assetId, next);
    }
  }

  /** The ignition state after `fixes`, and whether an ignition cycle seen from its start ended among them. */
  private advance(s: IgnitionState, fixes: readonly FaultFix[]): { after: IgnitionState; cycleEnded: boolean } {
    const after = { ...s };
    let cycleEnded = false;
    for (const f of fixes) {
      if (f.ignition === null) continue;
      if (f.ignition && after.on !== true) after.cycleStart = f.t;
      if (!f.ignition && after.on === true && after.cycleStart !== null) cycleEnded = true;
      after.on = f.ignition;
    }
    return { after, cycleEnded };
  }

  /** One vehicle's fixes of a round, in one transaction; the ignition state after them. */
  private async apply(
    tx: DbOrTx,
    orgId: string,
    assetId: string,
    fixes: readonly FaultFix[],
    ign: IgnitionState,
    codes: ReadonlySet<string>,
    tz: string,
  ): Promise<IgnitionState> {
    const active = await tx
      .select()
      .from(engineFaults)
      .where(and(eq(engineFaults.organizationId, orgId), eq(engineFaults.assetId, assetId), isNull(engineFaults.clearedAt)))
      .for('update');
    const current = new Map<string, Episode>(active.map((r) => [r.code, { row: r, dirty: false }]));
    const finished: Episode[] = [];
    const clear = (e: Episode, t: number) => {
      e.row.clearedAt = new Date(t);
      e.dirty = true;
      current.delete(e.row.code);
      finished.push(e);
    };
    for (const f of fixes) {
      for (const ch of f.report?.channels ?? []) {
        for (const r of ch.faults) this.seen(current, assetId, orgId, ch.channel, r, f.t);
        if (ch.kind === 'LIST') {
          // The list is the device's whole answer for its channel: what it leaves out is no longer active.
          const listed = new Set(ch.faults.map((r) => r.code));
          for (const e of [...current.values()]) if (e.row.channel === ch.channel && !listed.has(e.row.code) && e.row.lastSeenAt.getTime() < f.t) clear(e, f.t);
        }
      }
      if (f.ignition === null) continue;
      if (f.ignition && ign.on !== true) ign.cycleStart = f.t;
      if (!f.ignition && ign.on === true && ign.cycleStart !== null) {
        // A whole ignition cycle without the device sending it again (it sends every active DM1 fault after each ignition on).
        for (const e of [...current.values()]) if (e.row.channel === 'dm1Dtc' && e.row.lastSeenAt.getTime() < ign.cycleStart) clear(e, f.t);
      }
      ign.on = f.ignition;
    }
    const opened: Array<Episode & { row: { id: string } }> = [];
    for (const e of [...current.values(), ...finished]) {
      if (!e.dirty) continue;
      if (e.row.id === null) {
        const r = e.row;
        const [ins] = await tx
          .insert(engineFaults)
          .values({
            organizationId: orgId,
            assetId,
            source: r.source,
            channel: r.channel,
            code: r.code,
            spn: r.spn,
            fmi: r.fmi,
            occurrences: r.occurrences,
            lamps: r.lamps,
            firstSeenAt: r.firstSeenAt,
            lastSeenAt: r.lastSeenAt,
            clearedAt: r.clearedAt,
          })
          .returning({ id: engineFaults.id });
        e.row.id = ins!.id;
        this.stats.opened++;
        if (e.row.clearedAt === null) opened.push(e as Episode & { row: { id: string } });
      } else {
        await tx
          .update(engineFaults)
          .set({ lastSeenAt: e.row.lastSeenAt, occurrences: e.row.occurrences, lamps: e.row.lamps, clearedAt: e.row.clearedAt })
          .where(and(eq(engineFaults.organizationId, orgId), eq(engineFaults.id, e.row.id)));
      }
      if (e.row.clearedAt !== null) this.stats.cleared++;
    }
    if (opened.length) await this.announce(tx, orgId, assetId, opened, codes, tz);
    return ign;
  }

  /** A reported fault: its active episode refreshed, or a new one opened. */
  private seen(current: Map<string, Episode>, assetId: string, orgId: string, channel: FaultChannel, r: ReportedFault, t: number): void {
    const e = current.get(r.code);
    if (e) {
      if (t > e.row.lastSeenAt.getTime()) e.row.lastSeenAt = new Date(t);
      if (t < e.row.firstSeenAt.getTime() && e.row.id === null) e.row.firstSeenAt = new Date(t);
      if (r.occurrences !== null) e.row.occurrences = r.occurrences;
      if (r.lamps !== null) e.row.lamps = r.lamps;
      e.dirty = true;
      return;
    }
    current.set(r.code, {
      dirty: true,
      row: {
        id: null,
        organizationId: orgId,
        assetId,
        source: r.source,
        channel,
        code: r.code,
        spn: r.spn,
        fmi: r.fmi,
        occurrences: r.occurrences,
        lamps: r.lamps,
        firstSeenAt: new Date(t),
        lastSeenAt: new Date(t),
        clearedAt: null,
        defectId: null,
      },
    });
  }

  /** New active faults: a notice each, and a safety defect of each the organization's grounding codes name. */
  private async announce(
    tx: DbOrTx,
    orgId: string,
    assetId: string,
    opened: ReadonlyArray<Episode & { row: { id: string } }>,
    codes: ReadonlySet<string>,
    tz: string,
  ): Promise<void> {
    const [unit] = await tx
      .select({ unitNumber: assets.unitNumber })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.id, assetId)));
    const unitNumber = unit?.unitNumber ?? '?';
    const notices: NotifyInput[] = [];
    for (const { row } of opened) {
      const description = describeFault(row);
      const grounding = grounds(codes, row);
      if (grounding) {
        const defectId = await createEngineFaultDefect(tx, orgId, SYSTEM, {
          faultId: row.id,
          assetId,
          unitNumber,
          code: row.code,
          label: `Engine fault ${row.code}`,
          note: [description, `first seen ${timeWords(row.firstSeenAt.getTime(), tz)}`].filter(Boolean).join('; '),
          safety: true,
          automatic: true,
        });
        await tx
          .update(engineFaults)
          .set({ defectId })
          .where(and(eq(engineFaults.organizationId, orgId), eq(engineFaults.id, row.id)));
      }
      notices.push({
        organizationId: orgId,
        kind: 'ENGINE_FAULT',
        factKey: `engine-fault:${row.id}`,
        title: `Vehicle ${unitNumber}: engine fault ${row.code}`,
        body: [
          description ? `${description}.` : 'A code the standards do not describe (the engine maker’s own).',
          `First seen ${timeWords(row.firstSeenAt.getTime(), tz)}.`,
          grounding ? 'Your organization marks this code as grounding: a safety defect was opened, and the vehicle may not run until it is repaired.' : null,
        ]
          .filter(Boolean)
          .join(' '),
        link: `/settings/organization-settings/vehicles?open=${assetId}`,
        linkLabel: 'See the vehicle’s faults',
        about: { assetId },
      });
    }
    await notifyMany(tx, notices);
  }
}

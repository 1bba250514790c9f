// A driver's log declarations (issue 72, decisions 0314 and 0315): a switch between Canada's cycle 1
// and cycle 2 (SOR/2005-313 s. 29), adverse driving conditions claimed from an instant (49 CFR
// 395.1(b)(1); s. 76(2) and (3)) and an emergency until the driver reached safety (s. 76(1)). The driver or the
// office declares with an annotation; the engine then judges the log with them (engineOptions).
import type { z } from 'zod';
import { RULESET_LABELS, type RulesetId } from '@fleet/hos/ruleset-facts';
import { isCanadianRuleset, type HosDeclaration, type HosDeclarationList } from '@fleet/api-contract';
import type { declarationCreateSchema, declarationRemoveSchema, declarationsQuery } from '@fleet/api-contract';
import { invalidField, notFound } from '../../http/errors.ts';
import { notifyHosChange } from '../../db/sql/notify.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import {
  activeDeclaration,
  declarationAt,
  declarationsInRange,
  driverNameAndRuleset,
  insertDeclaration,
  markDeclarationRemoved,
  type DeclarationKind,
  type DeclarationRow,
} from './hos-declarations.repository.ts';
import { DAY_MS } from './hos.time.ts';

/** The longest range one list reads. */
export const DECLARATIONS_MAX_RANGE_DAYS = 31;
/** How far ahead of the server's clock a declaration may be dated (a phone's clock a little fast). */
const FUTURE_SLACK_MS = 5 * 60_000;

const view = (r: DeclarationRow): HosDeclaration => ({
  id: r.id,
  kind: r.kind,
  at: r.at.toISOString(),
  until: r.until ? r.until.toISOString() : null,
  cycle: r.cycle === 1 || r.cycle === 2 ? r.cycle : null,
  annotation: r.annotation,
});

/** The kinds only Canada's rules know: the cycle switch (s. 29, s. 54) and the emergency (s. 76(1)). */
const CANADA_ONLY: ReadonlySet<DeclarationKind> = new Set(['CYCLE_SWITCH', 'EMERGENCY']);
const kindWords: Record<DeclarationKind, string> = {
  CYCLE_SWITCH: 'Cycle switches',
  ADVERSE_DRIVING: 'Adverse driving conditions',
  EMERGENCY: 'Emergencies',
};

/**
 * Whether the driver's rules know this kind of declaration: a cycle switch and an emergency only on
 * Canadian rulesets (a 400 naming the driver's ruleset otherwise), adverse conditions everywhere the
 * engine has an extension for them.
 */
export function assertDeclarable(kind: DeclarationKind, ruleset: RulesetId): void {
  if (CANADA_ONLY.has(kind) && !isCanadianRuleset(ruleset))
    throw invalidField('kind', `${kindWords[kind]} are for drivers on Canadian rules; this driver is on ${RULESET_LABELS[ruleset]}`);
}

/** The driver's declarations from `from` to `to` (default the 7 days to now); an emergency that overlaps the range is in it. */
export async function listDeclarations({ db, orgId, now }: ReadScope, driverId: string, q: z.output<typeof declarationsQuery>): Promise<HosDeclarationList> {
  const d = await driverNameAndRuleset(db, orgId, driverId);
  const toMs = q.to ? Date.parse(q.to) : (now ?? Date.now());
  const fromMs = q.from ? Date.parse(q.from) : toMs - 7 * DAY_MS;
  if (fromMs >= toMs) throw invalidField('to', 'To must be after From');
  if (toMs - fromMs > DECLARATIONS_MAX_RANGE_DAYS * DAY_MS) throw invalidField('to', `The range may cover at most ${DECLARATIONS_MAX_RANGE_DAYS} days`);
  const rows = await declarationsInRange(db, orgId, d.id, new Date(fromMs), new Date(toMs));
  return { items: rows.map(view) };
}

/** Declares a cycle switch, adverse driving conditions or an emergency on the driver's log. */
export async function addDeclaration(
  { db, orgId, actor, now }: Scope,
  driverId: string,
  input: z.output<typeof declarationCreateSchema>,
): Promise<HosDeclaration> {
  return db.transaction(async (tx) => {
    const d = await driverNameAndRuleset(tx, orgId, driverId, true);
    assertDeclarable(input.kind, d.ruleset);
    const at = new Date(Date.parse(input.at));
    if (at.getTime() > (now ?? Date.now()) + FUTURE_SLACK_MS) throw invalidField('at', 'At cannot be in the future');
    if (await declarationAt(tx, orgId, d.id, input.kind, at)) throw invalidField('at', 'The same declaration is already on the log at that time');
    const row = await insertDeclaration(tx, {
      orgId,
      driverId: d.id,
      kind: input.kind,
      at,
      until: input.until ? new Date(Date.parse(input.until)) : null,
      cycle: input.cycle ?? null,
      annotation: input.annotation,
      createdBy: actor.userId,
    });
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'DECLARE_HOS',
      entityType: 'DRIVER',
      entityId: d.id,
      after: {
        kind: row.kind,
        at: row.at.toISOString(),
        until: row.until?.toISOString() ?? null,
        cycle: row.cycle,
        annotation: row.annotation,
        driverName: `${d.firstName} ${d.lastName}`,
      },
    });
    return view(row);
  });
}

/** Withdraws a declaration, with an annotation (the row is kept, removed, with it). */
export async function removeDeclaration(
  { db, orgId, actor }: Scope,
  driverId: string,
  declarationId: string,
  input: z.output<typeof declarationRemoveSchema>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const d = await driverNameAndRuleset(tx, orgId, driverId, true);
    const old = await activeDeclaration(tx, orgId, d.id, declarationId);
    if (!old) throw notFound('Declaration');
    await markDeclarationRemoved(tx, orgId, old.id, actor.userId, input.annotation);
    await notifyHosChange(tx, orgId);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'DECLARE_HOS',
      entityType: 'DRIVER',
      entityId: d.id,
      before: { kind: old.kind, at: old.at.toISOString(), cycle: old.cycle },
      after: { annotation: input.annotation, driverName: `${d.firstName} ${d.lastName}` },
    });
  });
}

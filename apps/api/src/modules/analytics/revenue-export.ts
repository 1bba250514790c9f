import { distanceFromKm, UNIT_LABELS, type RevenueReport, type revenueExportQuerySchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { unparseCsv } from '../../lib/csv.ts';
import type { ReadScope } from '../auth/index.ts';
import { revenueContext, revenueLoads, summarize } from './revenue.service.ts';

// The revenue report as CSV (decision 0166): the organization's distance unit, the currency in the
// headers, the groups, then each week or month, then the total; written by the formula-safe CSV
// helper (decision 0141).

type Query = z.output<typeof revenueExportQuerySchema>;
const GROUP_WORDS = { truck: 'Truck', driver: 'Driver', customer: 'Customer', lane: 'Lane' } as const;

export async function revenueCsv(s: ReadScope, userId: string | null, q: Query): Promise<{ filename: string; body: string }> {
  const ctx = await revenueContext(s, userId);
  const report: RevenueReport = summarize(await revenueLoads(s, ctx, q), ctx, q);
  const u = UNIT_LABELS[ctx.units].distance;
  const cur = report.currency;
  const d = (km: number) => Math.round(distanceFromKm(km, ctx.units) * 10) / 10;
  const rate = (money: number, km: number) => (km > 0 ? Math.round((money / distanceFromKm(km, ctx.units)) * 100) / 100 : '');
  const line = (section: string, label: string, f: RevenueReport['totals']) => [
    section,
    label,
    f.loads,
    f.revenue.toFixed(2),
    d(f.loadedKm),
    d(f.deadheadKm),
    d(f.totalKm),
    rate(f.revenue, f.loadedKm),
    rate(f.revenue, f.totalKm),
  ];
  const periodWord = q.period === 'week' ? 'Week' : 'Month';
  const body = unparseCsv(
    [
      'Section',
      'Name',
      'Loads',
      `Revenue (${cur})`,
      `Loaded (${u})`,
      `Deadhead (${u})`,
      `Total (${u})`,
      `Revenue per loaded ${u} (${cur})`,
      `Revenue per ${u} (${cur})`,
    ],
    [
      ...report.rows.map((r) => line(GROUP_WORDS[q.groupBy], r.label, r)),
      ...report.series.map((p) => line(periodWord, p.label, p)),
      line('Total', `${q.from} – ${q.to} (${ctx.timeZone})`, report.totals),
    ],
  );
  return { filename: `revenue-by-${q.groupBy}-${q.from.slice(0, 10)}.csv`, body };
}

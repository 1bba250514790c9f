import { temperatureSpanText, temperatureText, type LoadTemperatures, type UnitSystem } from '@fleet/api-contract';
import { loadPdfKit } from '../../lib/pdfkit.ts';
import { sensorCounts } from './excursions.ts';

// The load's temperature record (issue 73, decision 0322): what the shipper and the receiver keep
// under the sanitary transportation rule (21 CFR 1.908(e)): the set point, the readings at a set
// interval, the excursions, and the carrier's name it is signed with. Drawn by pdfkit as the other
// exports are; times in the organization's zone, temperatures in its unit system.

/** One line of the log: a time and each sensor's reading then (the last at or before it, within the interval). */
export interface LogRow {
  at: number;
  values: Array<{ celsius: number; defrost: boolean } | null>;
}

/** The readings sampled every `intervalMin` minutes from the first reading to the last, per sensor. */
export function logRows(readings: LoadTemperatures['readings'], sensors: readonly string[], intervalMin: number): LogRow[] {
  if (readings.length === 0) return [];
  const step = intervalMin * 60_000;
  const times = readings.map((r) => Date.parse(r.at));
  const first = Math.ceil(Math.min(...times) / step) * step;
  const last = Math.max(...times);
  const bySensor = sensors.map((s) =>
    readings
      .filter((r) => r.sensor === s)
      .map((r) => ({ at: Date.parse(r.at), celsius: r.celsius, defrost: r.defrost }))
      .sort((a, b) => a.at - b.at),
  );
  const rows: LogRow[] = [];
  const cursor = sensors.map(() => 0);
  for (let t = first; t <= last + step - 1 && rows.length < 5000; t += step) {
    const values = bySensor.map((list, k) => {
      let i = cursor[k]!;
      while (i + 1 < list.length && list[i + 1]!.at <= t) i++;
      cursor[k] = i;
      const r = list[i];
      return r && r.at <= t && t - r.at < step ? { celsius: r.celsius, defrost: r.defrost } : null;
    });
    if (values.some((v) => v !== null)) rows.push({ at: t, values });
  }
  return rows;
}

export interface LogHead {
  carrierName: string;
  loadNumber: string;
  customer: string;
  commodity: string | null;
  trailerUnit: string | null;
  driverName: string | null;
  timeZone: string;
  units: UnitSystem;
  intervalMin: number;
  generatedAt: number;
  /** Whether the trailer has any sensor role set (decision 0324): without roles every sensor is judged. */
  trailerHasRoles: boolean;
}

const MARGIN = 36;
const ROW = 14;

/** The record as a Letter PDF: the heading, the settings, the excursions, then the readings table. */
export async function temperatureLogPdf(head: LogHead, t: LoadTemperatures): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const when = (ms: number) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: head.timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }).format(ms);
  const sensors = [...new Set(t.readings.map((r) => r.sensor))].sort();
  const role = new Map(t.readings.map((r) => [r.sensor, r.role]));
  const rows = logRows(t.readings, sensors, head.intervalMin);
  const s = t.settings;
  const title = `Temperature record: load ${head.loadNumber}`;
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      autoFirstPage: false,
      size: 'LETTER',
      margin: MARGIN,
      info: { Title: title, Author: head.carrierName, Producer: 'Fleetline' },
    });
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    try {
      pdf.addPage({ size: 'LETTER', margin: MARGIN });
      const ink = '#111827';
      pdf.font('Helvetica-Bold').fontSize(16).fillColor(ink).text('Temperature record', MARGIN, MARGIN, { lineBreak: false });
      pdf.font('Helvetica').fontSize(10);
      const lines = [
        `Carrier: ${head.carrierName}`,
        `Load ${head.loadNumber} for ${head.customer}${head.commodity ? `, ${head.commodity}` : ''}`,
        `Trailer: ${head.trailerUnit ?? 'none'}${head.driverName ? `   Driver: ${head.driverName}` : ''}`,
        s.setPointC === null || s.toleranceC === null
          ? 'Set point: none (not a reefer load)'
          : `Set point: ${temperatureText(s.setPointC, head.units)} ± ${temperatureSpanText(s.toleranceC, head.units)}; an excursion counts after ${s.delayMinutes} minutes out of range (defrost cycles excluded)`,
        `Readings every ${head.intervalMin} minutes, times in ${head.timeZone}`,
      ];
      let y = MARGIN + 24;
      for (const l of lines) {
        pdf.text(l, MARGIN, y, { lineBreak: false });
        y += 14;
      }
      y += 8;
      pdf.font('Helvetica-Bold').fontSize(12).text(`Excursions (${t.excursions.length})`, MARGIN, y, { lineBreak: false });
      y += 18;
      pdf.font('Helvetica').fontSize(9);
      if (t.excursions.length === 0) {
        pdf.text('None: every reading stayed within the tolerance, or returned within the delay.', MARGIN, y, { lineBreak: false });
        y += ROW;
      }
      for (const e of t.excursions) {
        pdf
          .fillColor('#b91c1c')
          .text(
            `Sensor ${e.sensor}: ${e.direction === 'HIGH' ? 'above' : 'below'} range from ${when(Date.parse(e.startedAt))} to ${e.endedAt ? when(Date.parse(e.endedAt)) : 'still out of range'}, peak ${temperatureText(e.peakC, head.units)}`,
            MARGIN,
            y,
            { lineBreak: false },
          );
        y += ROW;
      }
      pdf.fillColor(ink);
      y += 8;
      pdf
        .font('Helvetica-Bold')
        .fontSize(12)
        .text(`Readings (${temperatureText(0, head.units).split(' ')[1]})`, MARGIN, y, { lineBreak: false });
      y += 18;
      const timeW = 170;
      const colW = Math.min(90, (540 - timeW) / Math.max(1, sensors.length));
      const header = (yy: number) => {
        pdf.font('Helvetica-Bold').fontSize(9).fillColor(ink).text('Time', MARGIN, yy, { lineBreak: false });
        sensors.forEach((name, k) => {
          const r = role.get(name);
          pdf.text(r ? `${name} (${r.toLowerCase().replace('_', ' ')})` : name, MARGIN + timeW + k * colW, yy, {
            width: colW - 4,
            lineBreak: false,
            ellipsis: true,
          });
        });
        pdf
          .moveTo(MARGIN, yy + 12)
          .lineTo(MARGIN + 540, yy + 12)
          .strokeColor('#9ca3af')
          .stroke();
        return yy + ROW + 2;
      };
      y = header(y);
      const bottom = 792 - MARGIN - 40;
      if (rows.length === 0)
        pdf.font('Helvetica').fontSize(9).text('No readings were received while the trailer carried this load.', MARGIN, y, { lineBreak: false });
      for (const r of rows) {
        if (y > bottom) {
          pdf.addPage({ size: 'LETTER', margin: MARGIN });
          y = header(MARGIN);
        }
        pdf.font('Helvetica').fontSize(9).fillColor(ink).text(when(r.at), MARGIN, y, { lineBreak: false });
        r.values.forEach((v, k) => {
          // Only the sensors judged (return air and zones, or all where no role is set) are marked.
          const judged = sensorCounts(role.get(sensors[k]!) ?? null, head.trailerHasRoles);
          const out = judged && v && s.setPointC !== null && s.toleranceC !== null && !v.defrost && Math.abs(v.celsius - s.setPointC) > s.toleranceC;
          pdf
            .fillColor(out ? '#b91c1c' : ink)
            .text(v ? `${temperatureText(v.celsius, head.units).split(' ')[0]}${v.defrost ? ' (defrost)' : ''}` : '-', MARGIN + timeW + k * colW, y, {
              width: colW - 4,
              lineBreak: false,
            });
        });
        y += ROW;
      }
      if (y > bottom) pdf.addPage({ size: 'LETTER', margin: MARGIN });
      pdf
        .fillColor(ink)
        .font('Helvetica-Oblique')
        .fontSize(10)
        .text(`Signed for the carrier: ${head.carrierName}, ${when(head.generatedAt)}`, MARGIN, 792 - MARGIN - 24, { lineBreak: false });
      pdf.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

import { RULESET_LABELS } from '@fleet/hos';
import { HOS_EVENT_TYPES, type HosEvent, type HosLogDay, type RoadsideCa, type RoadsideCaCycle } from '@fleet/api-contract';
import { loadPdfKit } from '../../lib/pdfkit.ts';

// The Canadian roadside view as a PDF (issue 72, decision 0316): what the officer sees on the phone,
// on paper. Labels are in English and French (an officer in Canada may read either); pdfkit's
// standard fonts, nothing to embed. Times are in the driver's home terminal zone, distances in km.

type Doc = PDFKit.PDFDocument;

const H = 3_600_000;
const STATUSES = ['OFF', 'SB', 'D', 'ON'] as const;
const STATUS_WORDS: Record<(typeof STATUSES)[number], string> = {
  OFF: 'Off duty / Hors service',
  SB: 'Sleeper berth / Couchette',
  D: 'Driving / Conduite',
  ON: 'On duty / En service',
};
const SHORT: Record<(typeof STATUSES)[number], string> = { OFF: 'OFF', SB: 'SB', D: 'D', ON: 'ON' };

/** 7:05 for 7 h 5 min (hours may pass 24 in the cycle totals). */
export const hoursMinutes = (ms: number): string => {
  const m = Math.round(ms / 60_000);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
};
const km = (m: number | null) => (m === null ? '—' : `${(m / 1000).toLocaleString('en-CA', { maximumFractionDigits: 1 })} km`);

function clock(iso: string, zone: string, seconds = true): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(new Date(iso));
}
function dateTime(iso: string, zone: string): string {
  const d = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  return `${d} ${clock(iso, zone, false)}`;
}

/** A record in words: its duty status, special category or event kind (Appendix A's event types, as the Canadian standard keeps them). */
export function eventText(e: HosEvent): string {
  switch (e.eventType) {
    case HOS_EVENT_TYPES.DUTY_STATUS:
      return e.status ? STATUS_WORDS[e.status] : 'Duty status';
    case HOS_EVENT_TYPES.INTERMEDIATE_LOG:
      return 'Intermediate log / Journal intermédiaire';
    case HOS_EVENT_TYPES.SPECIAL_CATEGORY:
      return e.special === 'PC'
        ? 'Personal conveyance / Usage personnel'
        : e.special === 'YM'
          ? 'Yard move / Déplacement dans la cour'
          : e.special === 'PASSENGER'
            ? 'Passenger seat / Siège passager'
            : 'Special category cleared / Catégorie spéciale terminée';
    case HOS_EVENT_TYPES.CERTIFICATION:
      return 'Certification of the day / Certification de la journée';
    case HOS_EVENT_TYPES.LOGIN_LOGOUT:
      return e.eventCode === 1 ? 'Login / Connexion' : 'Logout / Déconnexion';
    case HOS_EVENT_TYPES.ENGINE_POWER:
      return e.eventCode <= 2 ? 'Engine power-up / Démarrage du moteur' : 'Engine shut-down / Arrêt du moteur';
    case HOS_EVENT_TYPES.MALFUNCTION:
      return 'Malfunction or diagnostic / Défaillance ou diagnostic';
    default:
      return `Event ${e.eventType}/${e.eventCode}`;
  }
}

const left = (doc: Doc) => doc.page.margins.left;
const width = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

function title(doc: Doc, text: string, sub: string): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor('#111827')
    .text(text, left(doc), doc.page.margins.top, { width: width(doc) });
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor('#374151')
    .text(sub, { width: width(doc) });
  doc.moveDown(0.4);
}

function section(doc: Doc, text: string): void {
  const y = doc.y + 6;
  doc.font('Helvetica-Bold').fontSize(9.5).fillColor('#111827').text(text, left(doc), y, { lineBreak: false });
  doc
    .moveTo(left(doc), y + 13)
    .lineTo(left(doc) + width(doc), y + 13)
    .strokeColor('#111827')
    .lineWidth(0.8)
    .stroke();
  doc.y = y + 17;
}

/** Label: value pairs, `perRow` to a row; a long bilingual label wraps above its value. */
function fields(doc: Doc, pairs: ReadonlyArray<readonly [string, string]>, perRow: number): void {
  const w = width(doc) / perRow;
  for (let i = 0; i < pairs.length; i += perRow) {
    const y = doc.y;
    const row = pairs.slice(i, i + perRow);
    doc.font('Helvetica').fontSize(6.5);
    const labelH = Math.max(...row.map(([label]) => doc.heightOfString(label, { width: w - 6 })));
    let h = 0;
    row.forEach(([label, value], k) => {
      const x = left(doc) + k * w;
      doc
        .font('Helvetica')
        .fontSize(6.5)
        .fillColor('#6b7280')
        .text(label, x, y, { width: w - 6 });
      doc
        .font('Helvetica')
        .fontSize(8.5)
        .fillColor('#111827')
        .text(value || '—', x, y + labelH + 1, { width: w - 6, height: 22, ellipsis: true });
      h = Math.max(h, doc.y - y);
    });
    doc.y = y + Math.max(h, 18) + 3;
  }
}

interface Column {
  title: string;
  width: number;
}

function table(doc: Doc, columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): void {
  const x0 = left(doc);
  const total = columns.reduce((s, c) => s + c.width, 0);
  const row = (cells: readonly string[], y: number, h: number) => {
    let x = x0;
    cells.forEach((cell, k) => {
      const c = columns[k];
      if (!c) return;
      doc.text(cell, x + 2, y, { width: c.width - 4, height: h, ellipsis: true });
      x += c.width;
    });
  };
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(7).fillColor('#1f2937');
    const y = doc.y;
    const h = Math.max(...columns.map((c) => doc.heightOfString(c.title, { width: c.width - 4 })));
    row(
      columns.map((c) => c.title),
      y,
      h,
    );
    doc
      .moveTo(x0, y + h + 1)
      .lineTo(x0 + total, y + h + 1)
      .strokeColor('#9ca3af')
      .lineWidth(0.5)
      .stroke();
    doc.y = y + h + 4;
  };
  header();
  rows.forEach((cells, i) => {
    doc.font('Helvetica').fontSize(7.5);
    const h = Math.max(11, ...cells.map((c, k) => (columns[k] ? doc.heightOfString(c, { width: columns[k].width - 4 }) + 2 : 0)));
    if (doc.y + h > doc.page.height - doc.page.margins.bottom - 14) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (i % 2 === 1) doc.rect(x0, y - 1.5, total, h).fill('#f3f4f6');
    doc.font('Helvetica').fontSize(7.5).fillColor('#111827');
    row(cells, y, h);
    doc.y = y + h;
  });
  doc.x = x0;
}

/** The 24-hour graph grid (four rows, hour columns from the day's start, totals at the right), as the US display draws it. */
function graph(doc: Doc, day: HosLogDay): void {
  const x0 = left(doc) + 92;
  const totalsW = 44;
  const w = width(doc) - 92 - totalsW;
  const rowH = 16;
  const y0 = doc.y + 10;
  const startMs = Date.parse(day.dayStart);
  const lengthMs = day.totals.lengthMs;
  const hours = Math.round(lengthMs / H);
  const xOf = (ms: number) => x0 + (Math.min(Math.max(ms - startMs, 0), lengthMs) / lengthMs) * w;
  const startHour = Number(day.header.periodStart.slice(0, 2));
  doc.font('Helvetica').fontSize(6).fillColor('#374151');
  for (let i = 0; i <= hours; i++) {
    const hr = (startHour + i) % 24;
    const label = hr === 0 ? 'M' : hr === 12 ? 'N' : String(hr);
    const x = x0 + (i / hours) * w;
    doc.text(label, x - 6, y0 - 8, { width: 12, align: 'center', lineBreak: false });
  }
  doc.lineWidth(0.4).strokeColor('#9ca3af');
  STATUSES.forEach((s, r) => {
    const y = y0 + r * rowH;
    doc.rect(x0, y, w, rowH).stroke();
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#111827')
      .text(STATUS_WORDS[s], left(doc), y + 4, { width: 90, lineBreak: false, ellipsis: true });
    doc.text(hoursMinutes(day.totals[s]), x0 + w + 4, y + 4, { width: totalsW - 4, align: 'right', lineBreak: false });
  });
  for (let i = 1; i < hours * 4; i++) {
    const x = x0 + (i / (hours * 4)) * w;
    const full = i % 4 === 0;
    for (let r = 0; r < 4; r++) {
      const y = y0 + r * rowH;
      doc
        .moveTo(x, full ? y : y + rowH - 4)
        .lineTo(x, y + rowH)
        .strokeColor(full ? '#d1d5db' : '#e5e7eb')
        .stroke();
    }
  }
  doc.lineWidth(1.6).strokeColor('#1d4ed8');
  let prev: { x: number; y: number } | null = null;
  for (const seg of day.segments) {
    const r = STATUSES.indexOf(seg.status);
    const y = y0 + r * rowH + rowH / 2;
    const xa = xOf(Date.parse(seg.start));
    const xb = xOf(Date.parse(seg.end));
    if (prev && Math.abs(prev.x - xa) < 0.5) doc.moveTo(xa, prev.y).lineTo(xa, y).stroke();
    // Personal conveyance and yard moves dashed, as the standard's display sets them apart.
    if (seg.special === 'PC' || seg.special === 'YM') doc.dash(2, { space: 1.5 });
    doc.moveTo(xa, y).lineTo(xb, y).stroke();
    doc.undash();
    prev = { x: xb, y };
  }
  doc.lineWidth(0.5);
  doc.font('Helvetica-Bold').fontSize(7).fillColor('#111827');
  const totalY = y0 + 4 * rowH + 3;
  const sum = day.totals.OFF + day.totals.SB + day.totals.D + day.totals.ON;
  doc.text(`${hoursMinutes(sum)}${day.totals.pendingMs > 0 ? ` (+${hoursMinutes(day.totals.pendingMs)} to come / à venir)` : ''}`, x0, totalY, {
    width: w + totalsW,
    align: 'right',
    lineBreak: false,
  });
  doc.y = totalY + 12;
  doc.x = left(doc);
}

function cycleLines(c: RoadsideCaCycle, zone: string): Array<[string, string]> {
  return [
    ['Cycle totals at / Totaux du cycle à', dateTime(c.at, zone)],
    ['On duty in cycle / Heures de service du cycle', hoursMinutes(c.onDutyMs)],
    ['Remaining in cycle / Heures restantes du cycle', hoursMinutes(c.remainingMs)],
    [
      'Since last cycle reset / Depuis la dernière remise à zéro',
      c.sinceResetMs === null ? 'None in the last 14 days / Aucune en 14 jours' : `${hoursMinutes(c.sinceResetMs)} (${dateTime(c.lastResetAt!, zone)})`,
    ],
  ];
}

function dayPage(doc: Doc, view: RoadsideCa, day: HosLogDay, cycle: RoadsideCaCycle): void {
  const h = day.header;
  const zone = h.timeZone;
  const name = (d: { firstName: string; lastName: string } | null) => (d ? `${d.firstName} ${d.lastName}` : '');
  title(doc, `Daily log / Fiche journalière — ${h.date}`, `${name(h.driver)} · ${RULESET_LABELS[h.ruleset]} · ${zone}`);
  section(doc, 'Daily log / Fiche journalière');
  fields(
    doc,
    [
      ['Driver / Conducteur', name(h.driver)],
      ['Co-driver / Coéquipier', name(h.coDriver)],
      ['Date', h.date],
      ['Carrier / Transporteur', h.carrier.name],
      ['Principal place of business / Établissement principal', h.carrier.mainOffice ?? ''],
      ['Home terminal / Gare d’attache', h.homeTerminal ?? ''],
      ['Cycle', RULESET_LABELS[cycle.ruleset ?? h.ruleset]],
      ['Day starts / Début de la journée', `${h.periodStart} (${zone})`],
      [
        'Certified / Certifiée',
        day.certification.certified ? `Yes / Oui${day.certification.certifiedAt ? ` ${dateTime(day.certification.certifiedAt, zone)}` : ''}` : 'No / Non',
      ],
      ['Odometer start / Odomètre début', km(h.startOdometerM)],
      ['Odometer end / Odomètre fin', km(h.endOdometerM)],
      ['Distance driven / Distance parcourue', km(h.totalDistanceM)],
      ['Vehicles / Véhicules', h.vehicles.map((v) => v.unitNumber).join(', ')],
      ['Trailers / Remorques', h.trailers.map((v) => v.unitNumber).join(', ')],
      ['Shipping documents / Documents d’expédition', h.shippingDocuments.join(', ')],
    ],
    3,
  );
  section(doc, 'Day totals and cycle / Totaux de la journée et du cycle');
  fields(
    doc,
    [
      [STATUS_WORDS.OFF, hoursMinutes(day.totals.OFF)],
      [STATUS_WORDS.SB, hoursMinutes(day.totals.SB)],
      [STATUS_WORDS.D, hoursMinutes(day.totals.D)],
      [STATUS_WORDS.ON, hoursMinutes(day.totals.ON)],
    ],
    4,
  );
  fields(doc, cycleLines(cycle, zone), 2);
  section(doc, 'Graph / Grille');
  graph(doc, day);
  if (day.deferral.declared) {
    doc.font('Helvetica').fontSize(8).fillColor('#111827').text('Off-duty deferral: day 1 / Report des heures de repos : jour 1', left(doc), doc.y);
  }
  section(doc, 'Records / Registres');
  const events = day.events;
  if (events.length === 0) {
    doc.font('Helvetica').fontSize(8).fillColor('#374151').text('No records this day / Aucun registre ce jour', left(doc), doc.y);
    return;
  }
  table(
    doc,
    [
      { title: 'Time / Heure', width: 52 },
      { title: 'Event / Événement', width: 150 },
      { title: 'Origin / Origine', width: 60 },
      { title: 'Status / État', width: 58 },
      { title: 'Location / Lieu', width: 110 },
      { title: 'Odometer / Odomètre', width: 60 },
      { title: 'Comment / Remarque', width: width(doc) - 490 },
    ],
    events.map((e) => [
      clock(e.at, zone),
      `${eventText(e)}${e.vehicle ? ` (${e.vehicle.unitNumber})` : ''}`,
      e.recordOrigin.toLowerCase(),
      e.recordStatus === 'ACTIVE' ? 'active' : e.recordStatus.toLowerCase().replace(/_/g, ' '),
      e.locationDescription ?? '',
      e.odometerM === null ? '' : km(e.odometerM),
      e.annotation ?? '',
    ]),
  );
}

/**
 * The PDF: a first page listing the inspected day and the 14 days before it (totals per status and
 * the cycle totals at each day's end), then one page (or more) per day on the records.
 */
export async function roadsideCaPdf(view: RoadsideCa, days: ReadonlyMap<string, HosLogDay>, nowMs: number): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const who = `${view.driver.firstName} ${view.driver.lastName}`;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: 32,
      info: { Title: `Daily log / Fiche journalière ${who} ${view.from} – ${view.date}`, Producer: 'Fleetline' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    title(
      doc,
      `Daily log / Fiche journalière — ${who}`,
      `${view.date} and the 14 previous days / et les 14 jours précédents (${view.from} – ${view.date}) · ${RULESET_LABELS[view.ruleset]} · ${view.timeZone} · printed / imprimé ${dateTime(new Date(nowMs).toISOString(), view.timeZone)}`,
    );
    const latest = view.days[0]!;
    section(doc, 'Cycle now / Cycle actuel');
    fields(doc, cycleLines(latest.cycle, view.timeZone), 2);
    section(doc, 'The 15 days / Les 15 jours');
    table(
      doc,
      [
        { title: 'Date', width: 62 },
        { title: 'Off duty / Hors service', width: 54 },
        { title: 'Sleeper / Couchette', width: 54 },
        { title: 'Driving / Conduite', width: 54 },
        { title: 'On duty / En service', width: 54 },
        { title: 'Cycle on duty / Cycle en service', width: 62 },
        { title: 'Cycle left / Cycle restant', width: 62 },
        { title: 'Since reset / Depuis remise à zéro', width: 62 },
        { title: 'Certified / Certifiée', width: width(doc) - 464 },
      ],
      view.days.map((d) => [
        d.date,
        ...STATUSES.map((s) => (d.id ? hoursMinutes(d.totals[s]) : '—')),
        hoursMinutes(d.cycle.onDutyMs),
        hoursMinutes(d.cycle.remainingMs),
        d.cycle.sinceResetMs === null ? '—' : hoursMinutes(d.cycle.sinceResetMs),
        d.id ? (d.certified ? 'Yes / Oui' : 'No / Non') : 'No records / Aucun registre',
      ]),
    );
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#374151')
      .text(
        `Statuses / États: ${STATUSES.map((s) => `${SHORT[s]} = ${STATUS_WORDS[s]}`).join(' · ')}. Hours as h:mm / Heures en h:min.`,
        left(doc),
        doc.y + 6,
        {
          width: width(doc),
        },
      );
    for (const d of view.days) {
      const day = days.get(d.date);
      if (!day) continue;
      doc.addPage();
      dayPage(doc, view, day, d.cycle);
    }
    doc.end();
  });
}

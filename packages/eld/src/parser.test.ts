import { describe, expect, it } from 'vitest';
import { eventDataCheckValue, fileDataCheckValue, lineDataCheckValue } from './check-values.ts';
import { EldParseError } from './errors.ts';
import type { EldFile } from './model.ts';
import { parseEldFile } from './parser.ts';
import { driverWeek } from './testing/driver-week.ts';
import { writeEldFile } from './writer.ts';

const week = driverWeek();
const written = writeEldFile(week);
const lines = written.text.split('\r\n');

/** Most recent first, the later record first at the same time: the order the file keeps. */
function recentFirst<T extends { at: string; sequenceId: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.at === b.at ? b.sequenceId - a.sequenceId : a.at < b.at ? 1 : -1));
}

function inFileOrder(file: EldFile): EldFile {
  return {
    ...file,
    events: recentFirst(file.events),
    certifications: recentFirst(file.certifications),
    malfunctions: recentFirst(file.malfunctions),
    loginLogouts: recentFirst(file.loginLogouts),
    enginePower: recentFirst(file.enginePower),
    unidentifiedEvents: recentFirst(file.unidentifiedEvents),
  };
}

/**
 * Replaces line `index` (0-based). `resign: 'line'` makes its line check value match again, `'all'`
 * the file data check value too, as a forger who knows the algorithms would.
 */
function edit(index: number, change: (line: string) => string, { resign = 'none' }: { resign?: 'none' | 'line' | 'all' } = {}): string {
  const copy = [...lines];
  const changed = change(copy[index] ?? '');
  if (resign === 'none') {
    copy[index] = changed;
    return copy.join('\r\n');
  }
  const body = changed.slice(0, changed.lastIndexOf(','));
  copy[index] = `${body},${lineDataCheckValue(body)}`;
  if (resign === 'line') return copy.join('\r\n');
  const checks = copy
    .slice(0, -3)
    .filter((l) => /,[0-9A-F]{2}$/.test(l))
    .map((l) => l.slice(-2));
  copy[copy.length - 2] = fileDataCheckValue(checks);
  return copy.join('\r\n');
}

function parseError(text: string): EldParseError {
  try {
    parseEldFile(text);
  } catch (e) {
    if (e instanceof EldParseError) return e;
    throw e;
  }
  throw new Error('the file was accepted');
}

describe('round trip', () => {
  it('parses an 8-day file of every record type back into the same model', () => {
    expect(week.events.length).toBeGreaterThan(100);
    expect(week.events.some((e) => e.recordStatus === 2)).toBe(true);
    expect(week.events.some((e) => e.recordStatus === 3)).toBe(true);
    expect(week.events.some((e) => e.recordStatus === 4)).toBe(true);
    expect(week.events.some((e) => e.recordOrigin === 4)).toBe(true);
    expect(week.unidentifiedEvents.length).toBeGreaterThan(0);
    expect(parseEldFile(written.text)).toEqual(inFileOrder(week));
  });

  it('reads back the annotations, with their typed locations, on their events', () => {
    const annotated = parseEldFile(written.text).events.filter((e) => e.annotation !== null);
    expect(annotated.length).toBe(week.events.filter((e) => e.annotation !== null).length);
    expect(annotated.map((e) => e.annotation?.locationDescription)).toContain('3mi N IL Joliet');
  });

  it('writes the same text again from the parsed model', () => {
    expect(writeEldFile(parseEldFile(written.text)).text).toBe(written.text);
  });

  it('reads files whose lines end with CR only, LF only, or a mix', () => {
    const model = parseEldFile(written.text);
    expect(parseEldFile(written.text.replace(/\r\n/g, '\r'))).toEqual(model);
    expect(parseEldFile(written.text.replace(/\r\n/g, '\n'))).toEqual(model);
    expect(parseEldFile(lines.map((l, i) => l + (i % 2 ? '\r' : '\n')).join(''))).toEqual(model);
  });

  it('skips blank lines and reads a typographic apostrophe in a title', () => {
    const text = written.text.replace('User List:', '\r\nUser List:').replace("Driver's Certification", 'Driver\u2019s Certification');
    expect(parseEldFile(text)).toEqual(parseEldFile(written.text));
  });

  it('ignores a byte-order mark and trailing spaces an editor added', () => {
    const text = `\uFEFF${lines.map((l) => (l === '' ? l : `${l}  `)).join('\r\n')}`;
    expect(parseEldFile(text)).toEqual(parseEldFile(written.text));
  });

  it('reads a file written with bare carriage returns', () => {
    expect(parseEldFile(writeEldFile(week, { lineEnding: '\r' }).text)).toEqual(inFileOrder(week));
  });
});

describe('tampering', () => {
  const firstEvent = lines.indexOf('ELD Event List:') + 1;

  it('finds a changed character through the line data check value, naming the line', () => {
    // The event code of the first event row becomes 4 (on duty).
    const error = parseError(edit(firstEvent, (l) => l.replace(/^([^,]*,[^,]*,[^,]*,[^,]*,)\d/, '$14')));
    expect(error.line).toBe(firstEvent + 1);
    expect(error.segment).toBe('ELD Event List:');
    expect(error.field).toBe('Line Data Check Value');
  });

  it('finds a changed line whose check value was recomputed through the file data check value', () => {
    const header = lines.indexOf('ELD File Header Segment:') + 1;
    const error = parseError(edit(header, (l) => l.replace('Kowalczyk', 'Kowalski'), { resign: 'line' }));
    expect(error.field).toBe('File Data Check Value');
    expect(error.line).toBe(lines.length - 1);
  });

  it('finds a changed event through its event data check value when line and file values were recomputed', () => {
    // 12:50 → 12:51 on an intermediate log: every line value made to match, not the event's own.
    const row = lines.findIndex((l, i) => i > firstEvent && /^[^,]+,1,1,2,1,\d{6},125000,/.test(l));
    const error = parseError(edit(row, (l) => l.replace(',125000,', ',125100,'), { resign: 'all' }));
    expect(error.line).toBe(row + 1);
    expect(error.field).toBe('Event Data Check Value');
  });

  it('finds a removed line through the file data check value', () => {
    const copy = [...lines];
    copy.splice(firstEvent + 3, 1);
    expect(parseError(copy.join('\r\n')).field).toBe('File Data Check Value');
  });
});

describe('errors name the line and the field', () => {
  it('reports a missing segment by its title', () => {
    const text = lines
      .filter((l) => l !== 'CMV Engine Power-Up and Shut Down Activity:' && !/^[0-9A-F]+,[1-4],\d{6},\d{6},\d*,[\d.]*,[^,]*,[^,]*,/.test(l))
      .join('\r\n');
    expect(parseError(text).message).toContain('expected the title "CMV Engine Power-Up and Shut Down Activity:"');
  });

  it('reports a line with a field too many', () => {
    const users = lines.indexOf('User List:') + 1;
    const error = parseError(edit(users, (l) => l.replace('1,D,', '1,D,X,'), { resign: 'all' }));
    expect(error.line).toBe(users + 1);
    expect(error.message).toContain('5 fields, 4 expected');
  });

  it('reports an impossible date as the Event Date field', () => {
    const firstEvent = lines.indexOf('ELD Event List:') + 1;
    const error = parseError(edit(firstEvent, (l) => l.replace(/,0608(26),/, ',1399$1,'), { resign: 'all' }));
    expect(error.field).toBe('Event Date');
    expect(error.message).toContain('is not a date MMDDYY');
  });

  it('reports an annotation whose event is not in the event list', () => {
    const annotation = lines.indexOf('ELD Event Annotations or Comments:') + 1;
    const error = parseError(edit(annotation, (l) => l.replace(/^[0-9A-F]+,/, 'ABCD,'), { resign: 'all' }));
    expect(error.line).toBe(annotation + 1);
    expect(error.field).toBe('Event Sequence ID Number');
  });

  it('reports a user list that does not count from 1', () => {
    const users = lines.indexOf('User List:') + 1;
    expect(parseError(edit(users, (l) => l.replace(/^1,/, '2,'), { resign: 'all' })).field).toBe('Order Number');
  });

  it('reports text after the file data check value', () => {
    expect(parseError(`${written.text}hello\r\n`).message).toContain('text after the file data check value');
  });

  it('reports a file that stops in the header', () => {
    expect(parseError(lines.slice(0, 4).join('\r\n')).message).toContain('the header has 3 lines, 7 expected');
  });
});

describe('event check values and usernames', () => {
  it('verifies unidentified records with the username the ELD gives its unidentified profile', () => {
    expect(() => parseEldFile(written.text, { unidentifiedUsername: 'someone-else' })).toThrow(/Event Data Check Value/);
    const other = writeEldFile(week, { unidentifiedUsername: 'UNIDENT' }).text;
    expect(parseEldFile(other, { unidentifiedUsername: 'UNIDENT' })).toEqual(inFileOrder(week));
  });

  it('imports a file whose event check values another ELD computed otherwise when asked not to verify them', () => {
    const firstEvent = lines.indexOf('ELD Event List:') + 1;
    const fields = (lines[firstEvent] ?? '').split(',');
    const foreign = eventDataCheckValue([
      fields[3] ?? '',
      fields[4] ?? '',
      fields[5] ?? '',
      fields[6] ?? '',
      fields[7] ?? '',
      fields[8] ?? '',
      fields[9] ?? '',
      fields[10] ?? '',
      '101',
      'dispatch',
    ]);
    const text = edit(firstEvent, (l) => l.replace(/,[0-9A-F]{2},[0-9A-F]{2}$/, `,${foreign},00`), { resign: 'all' });
    expect(() => parseEldFile(text)).toThrow(EldParseError);
    expect(parseEldFile(text, { verifyEventCheckValues: false }).events).toHaveLength(week.events.length);
  });
});

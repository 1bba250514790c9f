// The server log's error lines, grouped by what they say: pino's JSON lines at error level or above
// (the request that answered a 5xx, a follower that failed) and the plain lines the database layer
// prints (`database: …`). Ids, numbers and times are blanked so that one cause is one group.

export interface LogGroup {
  text: string;
  count: number;
  /** Whether the group is of errors (pino 50+, or a plain line) or of warnings (pino 40). */
  level: 'error' | 'warn';
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The line with ids, times, paths and numbers blanked. */
export function normalizeLogText(text: string): string {
  return text
    .replace(UUID, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<time>')
    .replace(/\/tmp\/[^\s'"]+/g, '<dir>')
    .replace(/\b\d+(\.\d+)?\b/g, '#')
    .slice(0, 220);
}

interface PinoError {
  message?: string;
  code?: string;
  type?: string;
  cause?: PinoError;
}

interface PinoLine {
  level?: number;
  msg?: string;
  err?: PinoError;
  res?: { statusCode?: number };
  req?: { method?: string; url?: string };
}

/**
 * An error in a few words, numbers blanked but SQLSTATE codes kept: Drizzle's "Failed query: <the
 * statement>" says which statement (its verb and table), its cause (the database's error) says why.
 */
function errorWords(e: PinoError): string {
  const message = e.message ?? e.type ?? '';
  let what = normalizeLogText(message.split('\n')[0]!);
  if (message.startsWith('Failed query:')) {
    const verb = /^Failed query:\s*(\w+)/.exec(message)?.[1] ?? 'statement';
    const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(message)?.[1] ?? '?';
    what = `${verb} on ${table} failed`;
  }
  const code = (c: string | undefined) => (c ? `[${c}] ` : '');
  const cause = e.cause ? `: ${code(e.cause.code)}${normalizeLogText((e.cause.message ?? '').split('\n')[0]!)}` : '';
  return `${code(e.code)}${what}${cause}`;
}

/** One line's group key, or null when it is neither an error nor a warning. */
function classify(line: string): { text: string; level: 'error' | 'warn' } | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  if (trimmed.startsWith('{')) {
    let j: PinoLine;
    try {
      j = JSON.parse(trimmed) as PinoLine;
    } catch {
      return null;
    }
    const level = j.level ?? 30;
    if (level < 40) return null;
    const status = j.res?.statusCode ? `${j.res.statusCode} ` : '';
    return { text: `${status}${normalizeLogText(j.msg ?? '')}${j.err ? ` — ${errorWords(j.err)}` : ''}`, level: level >= 50 ? 'error' : 'warn' };
  }
  // Plain lines: the database layer's console.error, stack traces' first lines, Node's warnings.
  if (/^\s+at /.test(line)) return null;
  if (/^database:|error|exception|fatal|ECONN|failed/i.test(trimmed) && !trimmed.startsWith('Fleetline is running'))
    return { text: normalizeLogText(trimmed), level: 'error' };
  return null;
}

/** The error and warning lines of `output`, grouped, largest groups first. */
export function groupLogLines(output: string): LogGroup[] {
  const groups = new Map<string, LogGroup>();
  for (const line of output.split('\n')) {
    const c = classify(line);
    if (!c) continue;
    const key = `${c.level}|${c.text}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { text: c.text, count: 1, level: c.level });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

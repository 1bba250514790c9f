/**
 * Thrown by writeEldFile for input the file cannot hold (an impossible date, an unknown code, an order
 * number outside its list). `path` names the field the way the input spells it, e.g.
 * `events[3].at`, so the API can answer a 400 naming it.
 */
export class EldInputError extends Error {
  override readonly name = 'EldInputError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Thrown by parseEldFile for a file that is not a valid ELD output file or whose check values do not
 * match. `line` is the 1-based line number in the text, `segment` the title of the segment the line
 * belongs to and `field` the Appendix's name of the field at fault (null when the whole line is).
 */
export class EldParseError extends Error {
  override readonly name = 'EldParseError';
  constructor(
    readonly line: number,
    readonly segment: string | null,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(`line ${line}${segment ? ` (${segment})` : ''}${field ? `, ${field}` : ''}: ${reason}`);
  }
}

// The parser's output, apart from the parser: the memo of parsed logs (log-memo.ts) keeps one and
// the parser (timeline.ts) consults the memo, so neither imports the other for it.

/**
 * The input periods as validated instants, empty periods dropped and neighbours of the same engine
 * category merged (PC is OFF, YM is ON; passenger-seat time is category 4, logged OFF). n entries;
 * read-only once built (timelines may share its arrays).
 */
export interface RawLog {
  n: number;
  start: Float64Array;
  end: Float64Array;
  cat: Uint8Array;
  hasPassenger: boolean;
}

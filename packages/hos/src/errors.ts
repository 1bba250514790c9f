/**
 * Thrown for input the engine cannot judge (unsorted, overlapping or gapped periods, end before
 * start, bad instants, unknown ruleset or zone). The engine never guesses: a wrong answer about hours
 * of service costs carriers fines, so bad input fails loudly instead.
 */
export class HosInputError extends Error {
  override readonly name = 'HosInputError';
  constructor(
    message: string,
    /** Index of the offending period in the input array; null when an option is at fault. */
    readonly periodIndex: number | null = null,
    /** The offending field, e.g. 'end', 'timeZone', 'exemptions.adverseDriving[0].start'. */
    readonly field: string | null = null,
  ) {
    super(periodIndex === null ? message : `periods[${periodIndex}]: ${message}`);
  }
}

/** A routing service could not answer: unreachable, too slow, or an OSRM code other than 'Ok'. */
export class RoutingError extends Error {
  override readonly name = 'RoutingError';
  constructor(
    message: string,
    /** OSRM's code ('NoRoute', 'InvalidQuery', …), 'HTTP_<status>', 'TIMEOUT' or 'NETWORK'. */
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

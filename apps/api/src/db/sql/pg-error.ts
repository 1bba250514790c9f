export interface PgErrorFields {
  code: string;
  constraint?: string;
  /** `Key (driver_id)=(…) is not present in table "drivers".` */
  detail?: string;
  message?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * On Citus the error comes from a shard: its constraint and table names carry the shard's number
 * (`users_email_uq_102010`, `table "drivers_102076"`). Names are mapped to words without it.
 */
const SHARD_SUFFIX = /_\d{5,}$/;
const unsharded = (name: string | undefined) => name?.replace(SHARD_SUFFIX, '');
const unshardedDetail = (detail: string | undefined) => detail?.replace(/(table "[a-z_]+?)_\d{5,}"/g, '$1"');

/** PostgreSQL's error, possibly wrapped by Drizzle's DrizzleQueryError as `cause`. */
export function pgError(err: unknown): PgErrorFields | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const rec = e as { code?: unknown; constraint?: unknown; detail?: unknown; message?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && /^[0-9A-Z]{5}$/.test(rec.code)) {
      return { code: rec.code, constraint: unsharded(text(rec.constraint)), detail: unshardedDetail(text(rec.detail)), message: text(rec.message) };
    }
    e = rec.cause;
  }
  return null;
}

/** The constraint name when `err` is a unique violation (23505), else null. Internal: answers name the field (constraint-words.ts). */
export function uniqueViolation(err: unknown): string | null {
  const pg = pgError(err);
  if (pg?.code !== '23505') return null;
  // Citus passes a worker's error on without its constraint field: the name is read from the message.
  return pg.constraint ?? unsharded(/unique constraint "([^"]+)"/.exec(pg.message ?? '')?.[1]) ?? 'unique';
}

/** The constraint name when `err` is a foreign-key violation (23503), else null. Internal, as above. */
export function foreignKeyViolation(err: unknown): string | null {
  const pg = pgError(err);
  return pg?.code === '23503' ? (pg.constraint ?? 'foreign_key') : null;
}

import { sql } from 'drizzle-orm';

/** Count of rows as an int on both drivers. */
export const countAll = sql<number>`count(*)::int`;

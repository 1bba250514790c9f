import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';

// NOTIFYs the API sends itself, in the writing transaction, rather than leave them to a trigger:
// on Citus the triggers of hos_events, hos_logs and drivers run for a shard on a worker, where nobody
// listens and where a notifying transaction cannot take part in a two-phase commit, so migration 0035
// skips them there (decision 0169). Sent on every database: on PostgreSQL and PGlite the trigger's
// copy and this one carry the same channel and payload in one transaction and are folded into one.

/** Told at commit that an organization's HoS records changed, its id as the payload. */
export const HOS_CHANGES_CHANNEL = 'hos_changes';
/** Told at commit that a user's sign-in context changed, the user id (or '*') as the payload. */
export const AUTH_CHANGE_CHANNEL = 'auth_change';
/**
 * The notification hub's channel (modules/notifications, NOTIFICATIONS_CHANNEL): a driver's
 * conversation changing rides on it as `{"o": <org id>, "c": <driver id>}`, so no instance holds one
 * more LISTEN connection for it (a PostgreSQL test app's pool is 10: two apps of five each had none left).
 */
const NOTIFICATIONS_CHANNEL = 'notifications';

/** The organization's HoS records (events, log days) changed in this transaction. */
export async function notifyHosChange(db: DbOrTx, orgId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${HOS_CHANGES_CHANNEL}, ${orgId})`);
}

/** A driver's conversation changed in this transaction. */
export async function notifyConversation(db: DbOrTx, orgId: string, driverId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ o: orgId, c: driverId })})`);
}

/** These users' sign-in context changed (a driver record linked to or from them). */
export async function notifyAuthChange(db: DbOrTx, userIds: ReadonlyArray<string | null | undefined>): Promise<void> {
  const ids = [...new Set(userIds.filter((u): u is string => !!u))];
  if (ids.length === 0) return;
  await db.execute(sql`select pg_notify(${AUTH_CHANGE_CHANNEL}, u) from unnest(${`{${ids.join(',')}}`}::text[]) as u`);
}

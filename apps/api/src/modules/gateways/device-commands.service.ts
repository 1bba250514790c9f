import { DEVICE_COMMAND_EXPIRY_HOURS, type DeviceCommand, type DeviceCommandInput, type Page } from '@fleet/api-contract';
import { notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { type DeviceCommandRow, expireCommands, gatewayInOrganization, insertCommand, selectCommands } from './device-commands.repository.ts';

// Text commands to a device (issue 73, decision 0318): queued here, sent by the dispatcher
// (device-commands.dispatch.ts) on the device's connection, expired on read after
// DEVICE_COMMAND_EXPIRY_HOURS.

/** Told when a command is queued, so a device connected to this instance gets it at once. */
export interface CommandSender {
  queued(orgId: string, gatewayId: string): void;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentCommand(r: DeviceCommandRow): DeviceCommand {
  return {
    id: r.id,
    gatewayId: r.gatewayId,
    text: r.text,
    status: r.status,
    answer: r.answer,
    queuedBy: { userId: r.queuedBy, email: r.queuedByEmail, token: r.queuedByToken },
    createdAt: r.createdAt.toISOString(),
    sentAt: iso(r.sentAt),
    answeredAt: iso(r.answeredAt),
    expiresAt: r.expiresAt.toISOString(),
  };
}

/**
 * Queues `text` for the device (the organization's, else 404) and logs it in the activity log; the
 * device gets it now if it is connected to this instance, else when it next connects or reports.
 */
export async function queueCommand(
  { db, orgId, actor, now }: Scope,
  gatewayId: string,
  input: DeviceCommandInput,
  sender: CommandSender,
): Promise<DeviceCommand> {
  const at = new Date(now ?? Date.now());
  const row = await db.transaction(async (tx) => {
    const g = await gatewayInOrganization(tx, orgId, gatewayId);
    if (!g) throw notFound('Device');
    const created = await insertCommand(tx, {
      organizationId: orgId,
      gatewayId,
      text: input.text,
      queuedBy: actor.userId,
      queuedByEmail: actor.email,
      queuedByToken: actor.token?.name ?? null,
      createdAt: at,
      expiresAt: new Date(at.getTime() + DEVICE_COMMAND_EXPIRY_HOURS * 3_600_000),
    });
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'SEND_COMMAND',
      entityType: 'GATEWAY',
      entityId: gatewayId,
      after: { commandId: created.id, text: created.text },
    });
    return created;
  });
  sender.queued(orgId, gatewayId);
  return presentCommand(row);
}

/** The device's commands, newest first, with their status (those whose time ran out read as EXPIRED). */
export async function listCommands({ db, orgId, now }: ReadScope, gatewayId: string, q: { page: number; size: number }): Promise<Page<DeviceCommand>> {
  if (!(await gatewayInOrganization(db, orgId, gatewayId))) throw notFound('Device');
  await expireCommands(db, orgId, gatewayId, new Date(now ?? Date.now()));
  const { rows, total } = await selectCommands(db, orgId, gatewayId, q.size, q.page * q.size);
  return toPage(rows.map(presentCommand), total, q);
}

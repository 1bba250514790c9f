import type { Db } from '../../db/client.ts';
import type { DeviceLink, DeviceLinkListener, DeviceLinks } from '../positions/index.ts';
import { expireCommands, markAnswered, markSent, markUnsent, oldestQueued, oldestSent } from './device-commands.repository.ts';
import type { CommandSender } from './device-commands.service.ts';

// Sends queued commands on the devices' connections (issue 73, decision 0318). A Teltonika device
// answers one command at a time and its answer names no command, so one command per device is in
// flight: the next is written when the answer comes (or AWAIT_MS passes without one). The moments
// to send: a command queued on this instance while its device is connected here, the device's
// handshake, and every packet it sends after it (a device on another instance gets a command queued
// here at its next packet, within its reporting interval).

/** How long the answer to a sent command is waited for before the next one is written. */
export const AWAIT_MS = 60_000;

interface InFlight {
  link: DeviceLink;
  commandId: string;
  sentAt: number;
}

export class CommandDispatcher implements DeviceLinkListener, CommandSender {
  private readonly inFlight = new Map<string, InFlight>();
  /** One flush at a time per device: two moments close together never send the same command twice. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly links: DeviceLinks,
    private readonly clock: () => number = Date.now,
  ) {}

  queued(orgId: string, gatewayId: string): void {
    const link = this.links.get(gatewayId);
    if (link && link.orgId === orgId) this.links.ready(link);
  }

  ready(link: DeviceLink): Promise<void> {
    return this.serial(link.gatewayId, () => this.flush(link));
  }

  answered(link: DeviceLink, text: string): Promise<void> {
    return this.serial(link.gatewayId, async () => {
      const now = new Date(this.clock());
      const waiting = this.inFlight.get(link.gatewayId);
      let id = waiting?.link === link ? waiting.commandId : null;
      // An answer nothing waits for here (its wait ran out, or it was sent before a restart): the device's oldest unanswered command.
      id ??= (await oldestSent(this.db, link.orgId, link.gatewayId))?.id ?? null;
      if (id) await markAnswered(this.db, link.orgId, id, text, now);
      if (waiting?.commandId === id) this.inFlight.delete(link.gatewayId);
      await this.flush(link);
    });
  }

  closed(link: DeviceLink): void {
    if (this.inFlight.get(link.gatewayId)?.link === link) this.inFlight.delete(link.gatewayId);
  }

  private serial(gatewayId: string, fn: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(gatewayId) ?? Promise.resolve()).then(fn);
    const settled = next.catch(() => undefined);
    this.chains.set(gatewayId, settled);
    void settled.then(() => {
      if (this.chains.get(gatewayId) === settled) this.chains.delete(gatewayId);
    });
    return next;
  }

  /** Writes the device's oldest queued command, unless one is still waiting for its answer. */
  private async flush(link: DeviceLink): Promise<void> {
    if (this.links.get(link.gatewayId) !== link) return; // a newer connection of the device took over
    const waiting = this.inFlight.get(link.gatewayId);
    if (waiting && waiting.link === link && this.clock() - waiting.sentAt < AWAIT_MS) return;
    const now = new Date(this.clock());
    await expireCommands(this.db, link.orgId, link.gatewayId, now);
    const next = await oldestQueued(this.db, link.orgId, link.gatewayId, now);
    if (!next) return;
    if (!(await markSent(this.db, link.orgId, next.id, now))) return;
    if (!link.send(next.text)) {
      await markUnsent(this.db, link.orgId, next.id);
      return;
    }
    this.inFlight.set(link.gatewayId, { link, commandId: next.id, sentAt: now.getTime() });
  }
}

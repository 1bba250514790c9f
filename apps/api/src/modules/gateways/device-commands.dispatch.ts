import type { Db } from '../../db/client.ts';
import type { DeviceLink, DeviceLinkListener, DeviceLinks } from '../positions/index.ts';
import { expireCommands, gatewaysWithQueued, markAnswered, markSent, markUnsent, oldestQueued, oldestSent } from './device-commands.repository.ts';
import type { CommandSender } from './device-commands.service.ts';

// Sends queued commands on the devices' connections (issue 73, decision 0318). A Teltonika device
// answers one command at a time and its answer names no command, so one command per device is in
// flight: the next is written when the answer comes (or AWAIT_MS passes without one). The moments
// to send: a command queued on this instance while its device is connected here, the device's
// handshake, and every packet it sends after it (a device on another instance gets a command queued
// here at its next packet, within its reporting interval). The packets are asked about in rounds
// (decision 0332): a round's devices in one statement per organization, and only a device with a
// command waiting is flushed.

/** How long the answer to a sent command is waited for before the next one is written. */
export const AWAIT_MS = 60_000;

/**
 * A round of packets: the devices that sent one within it are asked about together at its end. Two
 * statements for every packet were a third of the API's and the database's CPU under a fleet of
 * Teltonika devices (docs/benchmarks/ingest.md); a command queued on another instance now waits up
 * to this much longer after the device's next packet.
 */
export const PACKET_ROUND_MS = 1000;

export interface DispatcherOptions {
  clock?: () => number;
  /** PACKET_ROUND_MS unless a test says otherwise. */
  roundMs?: number;
  /** Where a round that failed is reported (its devices are asked again at their next packet). */
  logError?: (err: unknown, message: string) => void;
}

interface InFlight {
  link: DeviceLink;
  commandId: string;
  sentAt: number;
}

export class CommandDispatcher implements DeviceLinkListener, CommandSender {
  private readonly inFlight = new Map<string, InFlight>();
  /** One flush at a time per device: two moments close together never send the same command twice. */
  private readonly chains = new Map<string, Promise<void>>();
  /** The devices that sent a packet since the round began. */
  private readonly due = new Map<string, DeviceLink>();
  private round: NodeJS.Timeout | null = null;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    private readonly links: DeviceLinks,
    private readonly opts: DispatcherOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
  }

  queued(orgId: string, gatewayId: string): void {
    const link = this.links.get(gatewayId);
    if (link && link.orgId === orgId) this.links.ready(link);
  }

  ready(link: DeviceLink): Promise<void> {
    return this.serial(link.gatewayId, () => this.flush(link));
  }

  packet(link: DeviceLink): void {
    this.due.set(link.gatewayId, link);
    if (this.round) return;
    this.round = setTimeout(() => {
      this.round = null;
      void this.endRound();
    }, this.opts.roundMs ?? PACKET_ROUND_MS);
    this.round.unref();
  }

  /** The round's devices still connected, asked about per organization; those with a command waiting are flushed. */
  private async endRound(): Promise<void> {
    const byOrg = new Map<string, DeviceLink[]>();
    for (const link of this.due.values()) {
      if (this.links.get(link.gatewayId) !== link) continue;
      const list = byOrg.get(link.orgId);
      if (list) list.push(link);
      else byOrg.set(link.orgId, [link]);
    }
    this.due.clear();
    const report = (err: unknown, what: string) => (this.opts.logError ?? ((e, m) => console.error(m, e)))(err, `device commands: ${what} failed`);
    // One organization's failure leaves the others' rounds alone.
    for (const [orgId, links] of byOrg) {
      try {
        const waiting = await gatewaysWithQueued(
          this.db,
          orgId,
          links.map((l) => l.gatewayId),
        );
        for (const link of links)
          if (waiting.has(link.gatewayId)) this.ready(link).catch((err: unknown) => report(err, `sending device ${link.gatewayId} its commands`));
      } catch (err) {
        report(err, `asking for the commands of organization ${orgId}'s devices`);
      }
    }
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
    if (this.due.get(link.gatewayId) === link) this.due.delete(link.gatewayId);
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

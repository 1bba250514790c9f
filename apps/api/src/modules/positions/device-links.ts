// The devices connected to this instance that can be sent a text command (issue 73, decision 0318):
// the Teltonika server registers each connection once its handshake is accepted and drops it when it
// closes, and hands every codec 12 answer read on it here. What to send and where answers are
// stored is the gateways module's (above positions): it subscribes with `listen`, and this module
// imports nothing of it.

/** One connected device's way back: writes a command's text (codec 12 on Teltonika). */
export interface DeviceLink {
  readonly gatewayId: string;
  readonly orgId: string;
  /** Writes the command; false when the connection is gone. */
  send(text: string): boolean;
}

/** What the commands' owner is told. Both may be async; a failure is logged, the connection goes on. */
export interface DeviceLinkListener {
  /** A device connected, or a command was queued for it here: a moment to send what waits for it. */
  ready(link: DeviceLink): Promise<void> | void;
  /**
   * The device sent a packet: a moment to send what another instance queued for it. Called for
   * every packet, so it should cost nothing by itself (the dispatcher asks the database once per
   * round of packets); without it, `ready` is called.
   */
  packet?(link: DeviceLink): void;
  /** The device answered a command with `text`. */
  answered(link: DeviceLink, text: string): Promise<void> | void;
  /** The connection closed. */
  closed?(link: DeviceLink): void;
}

export class DeviceLinks {
  private readonly byGateway = new Map<string, DeviceLink>();
  private listener: DeviceLinkListener | null = null;

  constructor(private readonly logError: (err: unknown, message: string) => void = (err, m) => console.error(m, err)) {}

  /** The commands' owner (one per app). */
  listen(listener: DeviceLinkListener): void {
    this.listener = listener;
  }

  /** The device's connection on this instance, if it is connected here. */
  get(gatewayId: string): DeviceLink | undefined {
    return this.byGateway.get(gatewayId);
  }

  /** A device is connected (a newer connection of the same device replaces the older). */
  open(link: DeviceLink): void {
    this.byGateway.set(link.gatewayId, link);
    this.ready(link);
  }

  /** A moment to send what waits for the device (its handshake, a command queued here). */
  ready(link: DeviceLink): void {
    this.call(link, () => this.listener?.ready(link), 'sending its commands');
  }

  /** The device's packet was acknowledged. */
  packet(link: DeviceLink): void {
    const l = this.listener;
    this.call(link, () => (l?.packet ? l.packet(link) : l?.ready(link)), 'sending its commands');
  }

  answered(link: DeviceLink, text: string): void {
    this.call(link, () => this.listener?.answered(link, text), 'storing its answer');
  }

  close(link: DeviceLink): void {
    if (this.byGateway.get(link.gatewayId) === link) this.byGateway.delete(link.gatewayId);
    this.listener?.closed?.(link);
  }

  private call(link: DeviceLink, fn: () => Promise<void> | void | undefined, what: string): void {
    try {
      Promise.resolve(fn()).catch((err: unknown) => this.logError(err, `device commands: ${what} for device ${link.gatewayId} failed`));
    } catch (err) {
      this.logError(err, `device commands: ${what} for device ${link.gatewayId} failed`);
    }
  }
}

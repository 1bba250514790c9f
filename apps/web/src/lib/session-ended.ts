// Why the server ended this browser's session, for the sign-out that follows to say (read once):
// a stream revoked for its session, or "log out everywhere" from this tab.

export interface SessionEnded {
  message: string;
  /** `success` when the user asked for it (log out everywhere), `alert` otherwise. */
  type: 'alert' | 'success';
}

let ended: (SessionEnded & { at: number }) | null = null;
/** A note older than this belongs to a sign-out that did not happen (the session went on). */
const KEPT_MS = 60_000;

export function noteSessionEnded(message: string, type: SessionEnded['type'] = 'alert'): void {
  ended = { message, type, at: Date.now() };
}

/** The note of the last minute, once; null otherwise. */
export function takeSessionEnded(now = Date.now()): SessionEnded | null {
  const note = ended;
  ended = null;
  return note && now - note.at < KEPT_MS ? { message: note.message, type: note.type } : null;
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Signed image links (issue 43, decision 0175). An <img src> cannot send the Authorization header,
// so wherever the API shows an image to someone allowed to see it, it hands over a link that
// carries its own short-lived proof: `/api/v1/images/{id}?exp=<unix s>&sig=<HMAC-SHA256>`.

const HOUR_S = 3600;

/**
 * The key links are signed with. A process-wide value rather than a dependency passed to every
 * presenter (users, organizations, inspections, defects, loads all present images): buildApp sets
 * it from the server's secret, so every instance signs and checks alike; until then (unit tests of
 * presenters) a random key makes links that this process alone accepts.
 */
let key: Buffer = randomBytes(32);

/** Derives the link key from the server's secret (JWT_SECRET, or the database's own outside production). */
export function setImageLinkSecret(secret: string): void {
  key = createHmac('sha256', secret).update('image-links').digest();
}

const signatureOf = (imageId: string, exp: number) => createHmac('sha256', key).update(`${imageId.toLowerCase()}.${exp}`).digest('base64url');

/**
 * A link to the image valid for one to two hours: it expires at the end of the next whole hour, so
 * the same image has the same URL for an hour (the browser's cache keeps it) and a page's
 * refetch (TanStack Query refreshes within a minute of its next use) hands out a fresh one.
 */
export function imageLink(imageId: string, now = Date.now()): string {
  const exp = (Math.floor(now / 1000 / HOUR_S) + 2) * HOUR_S;
  return `/api/v1/images/${imageId}?exp=${exp}&sig=${signatureOf(imageId, exp)}`;
}

/** `imageLink` of an optional image. */
export const optionalImageLink = (imageId: string | null | undefined): string | null => (imageId ? imageLink(imageId) : null);

export type LinkCheck = { ok: true; secondsLeft: number } | { ok: false; reason: 'expired' | 'invalid' };

/** Whether `sig` is this server's signature of the image and `exp`, and the link still valid at `now`. */
export function checkImageLink(imageId: string, exp: number, sig: string, now = Date.now()): LinkCheck {
  const expected = Buffer.from(signatureOf(imageId, exp));
  const given = Buffer.from(sig);
  // The signature first: an expiry moved by hand is a forged link, not an expired one.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  const secondsLeft = exp - Math.floor(now / 1000);
  return secondsLeft > 0 ? { ok: true, secondsLeft } : { ok: false, reason: 'expired' };
}

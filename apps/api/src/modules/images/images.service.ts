import { and, eq } from 'drizzle-orm';
import { images } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../http/errors.ts';
import type { AuthContext } from '../auth/index.ts';
import { checkImageLink } from './image-links.ts';
import type { ImageFacts, ImageOwner } from './image-owners.ts';

const SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => b.subarray(0, 4).toString('ascii') === 'GIF8' },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('ascii') === 'RIFF' && b.subarray(8, 12).toString('ascii') === 'WEBP' },
];

/** The image type read from the bytes themselves; the declared mimetype is not trusted. */
export function sniffImageType(data: Buffer): string {
  const match = SIGNATURES.find((s) => s.test(data));
  if (!match) throw badRequest('The file must be a PNG, JPEG, GIF or WebP image', 'Unrecognised image signature');
  return match.type;
}

/**
 * Stores an image of `orgId` (null: of no organization), uploaded by `uploader` (a user or an API
 * token), attached to `owner` at once when it is stored for one (a user's photo, a logo). With the
 * uploading device's key (`clientId`), a resend by the same uploader answers the first image.
 */
export async function storeImage(
  tx: DbOrTx,
  orgId: string | null,
  data: Buffer,
  clientId: string | null = null,
  who: { uploader?: string | null; owner?: ImageOwner | null } = {},
): Promise<string> {
  const contentType = sniffImageType(data);
  const uploader = who.uploader ?? null;
  const keyed = orgId && clientId ? clientId : null;
  // The key is the uploader's: another caller's key never answers their image (issue 66).
  const ofKey = async () =>
    orgId && keyed
      ? (
          await tx
            .select({ id: images.id, uploadedBy: images.uploadedBy })
            .from(images)
            .where(and(eq(images.organizationId, orgId), eq(images.clientId, keyed)))
        )[0]
      : undefined;
  // An upload stored before uploaders were recorded (null) is the resending phone's own.
  const mine = (r: { uploadedBy: string | null }) => r.uploadedBy === uploader || r.uploadedBy === null;
  const sent = await ofKey();
  if (sent && mine(sent)) return sent.id;
  if (sent) throw conflict('This upload key was used by someone else: send the photo again with a new key', 'Idempotency-Key of another uploader');
  const [row] = await tx
    .insert(images)
    .values({
      organizationId: orgId,
      contentType,
      size: data.length,
      data,
      clientId: keyed,
      uploadedBy: uploader,
      ownerType: who.owner?.type ?? null,
      ownerId: who.owner?.id ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: images.id });
  if (row) return row.id;
  // Nothing inserted: the same key's first upload committed meanwhile.
  const first = await ofKey();
  if (first && mine(first)) return first.id;
  if (first) throw conflict('This upload key was used by someone else: send the photo again with a new key', 'Idempotency-Key of another uploader');
  throw new Error('image insert returned nothing');
}

export async function deleteImage(tx: DbOrTx, imageId: string): Promise<void> {
  await tx.delete(images).where(eq(images.id, imageId));
}

export interface ServedImage {
  contentType: string;
  data: Buffer;
  /** How long the browser may keep it: a signed link's remaining validity, else 0 (ask again). */
  maxAgeSeconds: number;
}

const columns = {
  contentType: images.contentType,
  data: images.data,
  orgId: images.organizationId,
  uploadedBy: images.uploadedBy,
  ownerType: images.ownerType,
  ownerId: images.ownerId,
};

/** Whether the caller may read an image by id: whoever may read what it is attached to (image-access.ts). */
export type MayReadImage = (image: ImageFacts) => Promise<boolean>;

/** One of the organization's images, for a caller who may read it; any other is a 404, so its existence does not leak. */
export async function getOrgImage(db: DbOrTx, orgId: string, imageId: string, mayRead: MayReadImage): Promise<ServedImage> {
  const [row] = await db
    .select(columns)
    .from(images)
    .where(and(eq(images.id, imageId), eq(images.organizationId, orgId)));
  if (!row || !(await mayRead(row))) throw notFound('Image');
  return { contentType: row.contentType, data: row.data, maxAgeSeconds: 0 };
}

/**
 * The image at `/images/{id}`: through the signed link the API gave with it, or for a signed-in
 * caller who may read it (`mayRead`: whoever may read what it is attached to; a super
 * administrator: any). The link is a credential of its own (the API signed it for someone it showed
 * the image to), so it also opens an image of no organization, such as a super administrator's
 * avatar. Any other image is a 404; no credential at all, a 401.
 */
export async function getImageByLinkOrCaller(
  db: DbOrTx,
  imageId: string,
  link: { exp?: string | undefined; sig?: string | undefined },
  caller: AuthContext | null,
  mayRead: MayReadImage,
  now = Date.now(),
): Promise<ServedImage> {
  const viaLink = link.exp !== undefined || link.sig !== undefined;
  let maxAgeSeconds = 0;
  if (viaLink) {
    if (link.exp === undefined || link.sig === undefined) throw unauthorized('This image link is not valid', 'An image link needs both exp and sig');
    const check = checkImageLink(imageId, Number(link.exp), link.sig, now);
    if (!check.ok) {
      throw check.reason === 'expired'
        ? unauthorized('This image link has expired, reload the page', 'Image link past its exp')
        : unauthorized('This image link is not valid', 'Image link signature does not match');
    }
    // The browser may keep it while the link is valid (at most an hour); the URL changes after.
    maxAgeSeconds = Math.min(check.secondsLeft, 3600);
  } else if (!caller) {
    throw unauthorized('Authentication required', 'No bearer token or image link signature (exp, sig)');
  }
  const [row] = await db.select(columns).from(images).where(eq(images.id, imageId));
  if (!row) throw notFound('Image');
  if (!viaLink && !(await mayRead(row))) throw notFound('Image');
  return { contentType: row.contentType, data: row.data, maxAgeSeconds };
}

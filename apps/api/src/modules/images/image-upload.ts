import type { FastifyRequest } from 'fastify';
import type { UploadedImage } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { invalidField } from '../../http/errors.ts';
import { imageLink } from './image-links.ts';
import { storeImage } from './images.service.ts';

// What every image upload route does (avatars, logos, DVIR photos, message photos): read the one
// multipart file, then store it as the organization's with a signed link to show it.

/** The bytes of the multipart field `file` (400 naming `file` when there is none). */
export async function uploadedFileBytes(req: FastifyRequest): Promise<Buffer> {
  const file = await req.file();
  if (!file) throw invalidField('file', 'An image file is required');
  return file.toBuffer();
}

/**
 * Stores an image as the organization's, its uploader's until it is attached to something
 * (image-owners.ts); its id and a signed link. With the uploading phone's Idempotency-Key (a photo
 * taken offline, decision 0184) a resend answers the first upload's image.
 */
export async function storeOrganizationImage(
  db: Db,
  orgId: string,
  uploader: string | null,
  data: Buffer,
  clientId: string | null = null,
): Promise<UploadedImage> {
  const id = await db.transaction((tx) => storeImage(tx, orgId, data, clientId, { uploader }));
  return { id, url: imageLink(id) };
}

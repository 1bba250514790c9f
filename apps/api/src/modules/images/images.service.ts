import { eq } from 'drizzle-orm';
import { images } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { badRequest } from '../../http/errors.ts';

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

export async function storeImage(tx: DbOrTx, orgId: string | null, data: Buffer): Promise<string> {
  const contentType = sniffImageType(data);
  const [row] = await tx.insert(images).values({ organizationId: orgId, contentType, size: data.length, data }).returning({ id: images.id });
  if (!row) throw new Error('image insert returned nothing');
  return row.id;
}

export async function deleteImage(tx: DbOrTx, imageId: string): Promise<void> {
  await tx.delete(images).where(eq(images.id, imageId));
}

export async function getImage(db: DbOrTx, imageId: string) {
  const rows = await db.select().from(images).where(eq(images.id, imageId));
  return rows[0] ?? null;
}

import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { images, type IMAGE_OWNER_TYPES } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { invalidField } from '../../http/errors.ts';

// Whose an image is (issue 66, decision 0235). An upload is its uploader's until it is attached to
// what it shows: a message, an inspection report, a defect's repair certification, a load's papers,
// a user's photo or the organization's logo. From then on it is read by whoever may read that, and
// it is attached to nothing else: an image id one did not upload, or one already attached elsewhere,
// is refused. Images stored before owners were recorded and never attached have no uploader: any
// member of their organization may still attach them, once.

export type ImageOwnerType = (typeof IMAGE_OWNER_TYPES)[number];
export interface ImageOwner {
  type: ImageOwnerType;
  id: string;
}

/** Who uploads: the API token when one is the caller (it acts for itself, never as its creator), else the user. */
export const uploaderOf = (who: { userId: string | null; token?: { id: string } | null }): string | null => who.token?.id ?? who.userId;

/**
 * Attaches the images to `owner`, in the owner's transaction (after its row is written, so a refusal
 * undoes it): each must be an image of the organization (400 "… must be images uploaded to this
 * organization"), uploaded by `uploader` (400 "… must be images you uploaded"), and attached to
 * nothing else (400 "… are attached to something else: upload them again"). Attaching again to the
 * same owner changes nothing. `path`: the field the 400 names, or a function of the id's index;
 * `label` names the field in words, `one` when it holds one image.
 */
export async function attachImages(
  tx: DbOrTx,
  orgId: string,
  uploader: string | null,
  ids: ReadonlyArray<string | null | undefined>,
  owner: ImageOwner,
  path: string | ((index: number) => string),
  label: string,
  one = false,
): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return;
  const sameOwner = and(eq(images.ownerType, owner.type), eq(images.ownerId, owner.id));
  // The row lock of the update orders two attachments of one upload: the second finds it taken.
  const claimed = await tx
    .update(images)
    .set({ ownerType: owner.type, ownerId: owner.id })
    .where(
      and(
        eq(images.organizationId, orgId),
        inArray(images.id, wanted),
        or(
          sameOwner,
          and(isNull(images.ownerType), uploader === null ? isNull(images.uploadedBy) : or(isNull(images.uploadedBy), eq(images.uploadedBy, uploader))),
        ),
      ),
    )
    .returning({ id: images.id });
  if (claimed.length === wanted.length) return;
  const got = new Set(claimed.map((c) => c.id));
  const refused = wanted.findIndex((id) => !got.has(id));
  const [row] = await tx
    .select({ ownerType: images.ownerType, uploadedBy: images.uploadedBy })
    .from(images)
    .where(and(eq(images.organizationId, orgId), eq(images.id, wanted[refused]!)));
  const field = typeof path === 'string' ? path : path(ids.indexOf(wanted[refused]!));
  const [an, is, them] = one ? ['an image', 'is', 'it'] : ['images', 'are', 'them'];
  if (!row) throw invalidField(field, `${label} must be ${an} uploaded to this organization`);
  if (row.ownerType !== null) throw invalidField(field, `${label} ${is} attached to something else: upload ${them} again`);
  throw invalidField(field, `${label} must be ${an} you uploaded`);
}

/** What a read of an image needs to know of it. */
export interface ImageFacts {
  orgId: string | null;
  uploadedBy: string | null;
  ownerType: ImageOwnerType | null;
  ownerId: string | null;
}

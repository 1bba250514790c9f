import type { DbOrTx } from '../../db/client.ts';
import type { AuthContext } from '../auth/index.ts';
import { uploaderOf, type ImageFacts, type ImageOwnerType } from './image-owners.ts';

// Who reads an image by id (issue 66, decision 0235): whoever may read what it is attached to, as
// that module answers it. The owners' modules (messages, maintenance, loads) stand above images and
// import it, so their answers reach it from the app's route list (decision 0250), never by import.

/** Whether `caller` may read the record an image is attached to (its owner's module answers). */
export type OwnerInReach = (db: DbOrTx, orgId: string, caller: AuthContext, ownerId: string, nowMs: number) => Promise<boolean>;

/** The answer of each owner's module, for the owners other than users and the organization. */
export type OwnersInReach = Record<Exclude<ImageOwnerType, 'USER' | 'ORGANIZATION'>, OwnerInReach>;

/**
 * The check for `caller`: a super administrator reads any image; anyone else only an image of their
 * own organization that is their own upload not attached yet (or one stored before uploaders were
 * recorded), a user's photo or the logo (shown to every member), or part of a message, report,
 * defect or load they may read.
 */
export function mayReadImage(db: DbOrTx, caller: AuthContext, owners: OwnersInReach, now = Date.now()) {
  return async (image: ImageFacts): Promise<boolean> => {
    if (caller.isSuperAdmin) return true;
    const orgId = caller.orgId;
    if (orgId === null || image.orgId !== orgId) return false;
    const id = image.ownerId ?? '';
    switch (image.ownerType) {
      case null:
        return image.uploadedBy === null || image.uploadedBy === uploaderOf(caller);
      case 'USER':
      case 'ORGANIZATION':
        return true;
      default:
        // An owner type no module answers for reads as no: deny by default, as the switch did.
        return Object.hasOwn(owners, image.ownerType) ? owners[image.ownerType](db, orgId, caller, id, now) : false;
    }
  };
}

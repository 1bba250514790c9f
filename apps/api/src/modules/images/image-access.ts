import type { DbOrTx } from '../../db/client.ts';
import type { AuthContext } from '../auth/index.ts';
import { loadInReach } from '../loads/index.ts';
import { defectInReach, dvirInReach } from '../maintenance/index.ts';
import { messageInReach } from '../messages/index.ts';
import { uploaderOf, type ImageFacts } from './image-owners.ts';

// Who reads an image by id (issue 66, decision 0235): whoever may read what it is attached to, as
// that module answers it. Imported by the images routes only: the owners' modules import the images
// module's public file, so its services cannot import them back.

/**
 * The check for `caller`: a super administrator reads any image; anyone else only an image of their
 * own organization that is their own upload not attached yet (or one stored before uploaders were
 * recorded), a user's photo or the logo (shown to every member), or part of a message, report,
 * defect or load they may read.
 */
export function mayReadImage(db: DbOrTx, caller: AuthContext, now = Date.now()) {
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
      case 'MESSAGE':
        return messageInReach(db, orgId, caller, id);
      case 'DVIR':
        return dvirInReach(db, orgId, caller, id, now);
      case 'DEFECT':
        return defectInReach(db, orgId, caller, id, now);
      case 'LOAD':
        return loadInReach(db, orgId, caller, id);
    }
  };
}

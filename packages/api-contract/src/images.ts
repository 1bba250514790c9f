import { z } from 'zod';
import { orgIdParams } from './users.ts';

// Uploaded images (DVIR photos and signatures, load documents, avatars, logos; issue 43, decision
// 0175): an organization's own. A signed-in member reads one at `organizations/{orgId}/images/{id}`;
// a page embeds one through the signed link the API hands out wherever it shows the image.

export const imageIdParams = z.object({ imageId: z.uuid() });
export const orgImageParams = orgIdParams.extend({ imageId: z.uuid() });

/** `GET /images/{imageId}`: the link's expiry and signature, exactly as the API wrote them. */
export const imageLinkQuery = z.object({
  exp: z
    .string()
    .regex(/^\d{1,12}$/, "exp must be the link's expiry in Unix seconds")
    .optional(),
  sig: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "sig must be the link's signature")
    .optional(),
});

/** An uploaded image: its id (what a report or a document references) and a signed link that shows it. */
export const uploadedImageSchema = z.object({ id: z.string(), url: z.string() });
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

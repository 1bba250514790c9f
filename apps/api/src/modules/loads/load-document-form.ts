import type { FastifyRequest } from 'fastify';
import { LOAD_DOCUMENT_MAX_PAGES, loadDocumentFormSchema, type LoadDocumentInput } from '@fleet/api-contract';
import { AppError, invalidField, payloadTooLarge } from '../../http/errors.ts';
import type { NewDocument } from './load-documents.service.ts';

// What POST `loads/{id}/documents` received (issue 70): JSON naming uploaded images (the pages in
// order, or the older single `imageId`), or a multipart form with `type`, `stopId` and the pages as
// image files in order. Either becomes one NewDocument; bad input is a 400 naming its field.

const FIELDS = 10;

/** The JSON body as a new document (the contract's schema has checked it). */
export function documentOfJson(body: LoadDocumentInput): NewDocument {
  const pages = body.imageIds ? { imageIds: body.imageIds, field: 'imageIds' as const } : { imageIds: [body.imageId!], field: 'imageId' as const };
  return { type: (body.type ?? body.documentKind)!, stopId: body.stopId ?? null, pages };
}

const pageTooLarge = (n: number, limit: number) =>
  payloadTooLarge(`Page ${n} is larger than the upload limit (${Math.round(limit / 1024 / 1024)} MB): take the photo again at a lower resolution`);

/**
 * Reads the multipart form: its text fields and every file, in the order sent. More than the page
 * limit is a 400 naming `pages`; a page over the image upload limit, a 413 naming the page.
 */
export async function documentOfForm(req: FastifyRequest, imageLimit: number): Promise<NewDocument> {
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  const tooMany = () => invalidField('pages', `A document has at most ${LOAD_DOCUMENT_MAX_PAGES} pages`);
  try {
    // One file more than the limit is read so "too many" is told apart from busboy's own limit.
    for await (const part of req.parts({ limits: { files: LOAD_DOCUMENT_MAX_PAGES + 1, fields: FIELDS, fileSize: imageLimit } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (files.length >= LOAD_DOCUMENT_MAX_PAGES) throw tooMany();
      files.push(await part.toBuffer());
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw pageTooLarge(files.length + 1, imageLimit);
    if (code === 'FST_FILES_LIMIT') throw tooMany();
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw invalidField('body', 'The form has too many fields');
    throw err;
  }
  const parsed = loadDocumentFormSchema.safeParse({ type: fields.type || undefined, stopId: fields.stopId || null });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', words: i.message }));
    // The same words the validator gives a JSON body: message in words, technical `path: words`.
    throw new AppError(
      400,
      [...new Set(issues.map((i) => i.words))].join('; '),
      [...new Set(issues.map((i) => `${i.path}: ${i.words}`))].join('; '),
      'validation.invalid_body',
    );
  }
  if (files.length === 0) throw invalidField('pages', 'A document needs at least one page: send the photos as files');
  return { type: parsed.data.type, stopId: parsed.data.stopId ?? null, pages: { files } };
}

import { IMAGE_MAX_BYTES } from './images.ts';

// A phone camera's photo is often 3-6 MB, above the upload limit: scale it down in the browser first
// (longest side 1600 px, JPEG), which keeps a defect readable. A picture the browser cannot decode, or
// one still too big, is sent as it is and the server's 413 says why.

const MAX_SIDE = 1600;

/** The photo scaled to fit MAX_SIDE as a JPEG; null when the browser cannot decode or encode it. */
async function scaledJpeg(file: Blob): Promise<Blob | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    // A transparent PNG stays legible on a white page.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
  } catch {
    return null;
  }
}

/** The photo to upload: the original when it is small enough, else a scaled JPEG (or the original if scaling fails). */
export async function photoForUpload(file: File): Promise<Blob> {
  if (file.size <= IMAGE_MAX_BYTES) return file;
  const blob = await scaledJpeg(file);
  return blob && blob.size < file.size ? blob : file;
}

/**
 * A document page (issue 70) as a JPEG whatever the camera gave: a PDF page holds JPEG and PNG, and a
 * page kept offline in the phone's outbox stays small. The original when the browser cannot decode it
 * (the server then says what it takes).
 */
export async function pagePhoto(file: File): Promise<Blob> {
  return (await scaledJpeg(file)) ?? file;
}

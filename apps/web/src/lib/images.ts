/** The picture formats the API stores (profile pictures, organization logos). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The API's default IMAGE_LIMIT_BYTES; the server still answers 413 if an installation set it lower. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** The hint shown under a picture upload. */
export const IMAGE_HINT = 'PNG, JPEG, GIF or WebP, up to 2 MB.';

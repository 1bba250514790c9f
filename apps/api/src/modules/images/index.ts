// The images module's public file: other modules import from here only (imports inside the module stay direct).
export { deleteImage, storeImage } from './images.service.ts';

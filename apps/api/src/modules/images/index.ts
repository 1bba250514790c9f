// The images module's public file: other modules import from here only (imports inside the module stay direct).
export { imageLink, optionalImageLink, setImageLinkSecret } from './image-links.ts';
export { deleteImage, storeImage } from './images.service.ts';
export { storeOrganizationImage, uploadedFileBytes } from './image-upload.ts';
export { attachImages, uploaderOf, type ImageFacts, type ImageOwner, type ImageOwnerType } from './image-owners.ts';
export { default as imagesRoutes } from './images.routes.ts';
export type { OwnersInReach } from './image-access.ts';

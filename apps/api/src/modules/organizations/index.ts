// The organizations module's public file: other modules import from here only (imports inside the module stay direct).
export { getOrganizationSettings, readSettings } from './organizations.repository.ts';
export { createOrganizationWithAdmin } from './organizations.service.ts';

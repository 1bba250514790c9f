// The groups module's public file: other modules import from here only (imports inside the module stay direct).
export { assetInGroup, driverInGroup, groupsOfAssets } from './groups.filter.ts';
export { assertGroup } from './groups.repository.ts';

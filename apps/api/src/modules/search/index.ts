// The search module's public file: other modules import from here only (imports inside the module stay direct).
export { search, searchFilters, searchTags } from './search.service.ts';

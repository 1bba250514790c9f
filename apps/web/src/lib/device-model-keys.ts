import type { PageQuery } from '@fleet/api-contract';

/**
 * Query keys of the global device-model catalogue. Two features read it (the catalogue screen and the
 * device form's model choice), so its keys live here: a change on the catalogue screen invalidates
 * `all`, which refreshes the device form's choices too.
 */
export const deviceModelKeys = {
  all: ['device-models'] as const,
  list: (query: PageQuery) => ['device-models', 'list', query] as const,
  choices: () => ['device-models', 'all'] as const,
};

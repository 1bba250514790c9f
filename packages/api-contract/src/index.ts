export * from './permissions.ts';
export * from './validation.ts';
export * from './errors.ts';
export * from './paging.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './positions.ts';

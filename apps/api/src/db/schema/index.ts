export * from './organizations.ts';
export * from './users.ts';
export * from './activity-log.ts';
export * from './files.ts';
export * from './fleet.ts';
export * from './data-retention.ts';
export * from './positions.ts';
export * from './hos.ts';

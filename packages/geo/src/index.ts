export * from './distance.ts';
export * from './simplify.ts';
export * from './trips.ts';

export * from './catalog.ts';
export * from './logical-types.ts';

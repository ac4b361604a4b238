export * from './http/index.ts';
export * from './topics/index.ts';

export * from './admin-client.ts';
export * from './program.ts';

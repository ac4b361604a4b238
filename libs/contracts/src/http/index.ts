export * from './common.ts';
export * from './fields.ts';
export * from './internal.ts';
export * from './problem.ts';
export * from './request-size.ts';
export * from './resources.ts';

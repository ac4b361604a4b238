export * from './characters.ts';
export * from './decimal.ts';
export * from './eligibility.ts';
export * from './http/index.ts';
export * from './localized.ts';
export * from './problems.ts';
export * from './text.ts';
export * from './topics/index.ts';

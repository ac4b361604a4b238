export * from './accepted-event-defect.ts';
export * from './catalog.ts';
export * from './logical-types.ts';

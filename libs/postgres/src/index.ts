export * from './listen.ts';
export * from './metrics.ts';
export * from './migrate.ts';
export * from './pool.ts';
export * from './sql.ts';
export * from './transaction.ts';

export { buildApp, type LedgerAppDeps } from './app.ts';
export { type LedgerEnv, ledgerEnv } from './env.ts';
export { startLedger } from './server.ts';

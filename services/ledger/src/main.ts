import { runService } from '@engage/kit';
import { ledgerEnv } from './env.ts';
import { startLedger } from './server.ts';

await runService({ name: 'ledger', env: ledgerEnv, start: startLedger });

import { runService } from '@engage/kit';
import { rulesEnv } from './env.ts';
import { startRules } from './server.ts';

await runService({ name: 'rules', env: rulesEnv, start: startRules });

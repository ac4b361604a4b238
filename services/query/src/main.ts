import { runService } from '@engage/kit';
import { queryEnv } from './env.ts';
import { startQuery } from './server.ts';

await runService({ name: 'query', env: queryEnv, start: startQuery });

import { runService } from '@engage/kit';
import { gatewayEnv } from './env.ts';
import { startGateway } from './server.ts';

await runService({ name: 'gateway', env: gatewayEnv, start: startGateway });

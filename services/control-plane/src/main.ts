import { runService } from '@engage/kit';
import { controlPlaneEnv } from './env.ts';
import { startControlPlane } from './server.ts';

await runService({ name: 'control-plane', env: controlPlaneEnv, start: startControlPlane });

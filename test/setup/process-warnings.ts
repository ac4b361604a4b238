// Each integration worker prints process warnings as the CLIs do, without kafkajs's known timer warning.
import { printProcessWarnings } from '@engage/devstack/cli/warnings.ts';

printProcessWarnings();

import { routeProcessWarnings } from '@engage/kit';

/** The command-line tools print process warnings as one line each, without kafkajs's known timer warning. */
export function printProcessWarnings() {
  routeProcessWarnings((warning) => process.stderr.write(`${warning.name}: ${warning.message}\n`));
}

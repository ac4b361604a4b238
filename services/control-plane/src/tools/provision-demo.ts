// Provisions (or reuses) the demo organization through the admin API and prints it as JSON.
// `npm start` runs this once the control plane is up: ENGAGE_URL and ENGAGE_ADMIN_TOKEN say where,
// ENGAGE_DEMO_OWNER_PASSWORD is the password of the organization's first Owner (owner@demo.local),
// and ENGAGE_DEMO_TENANT (JSON, as printed before) names a tenant to keep, whose file is applied again.
import { AdminClient } from '@engage/cli';
import { type DemoTenant, provisionDemo } from './demo-tenant.ts';

const url = process.env.ENGAGE_URL ?? 'http://127.0.0.1:8084';
const token = process.env.ENGAGE_ADMIN_TOKEN;
const ownerPassword = process.env.ENGAGE_DEMO_OWNER_PASSWORD;
if (!token || !ownerPassword) {
  process.stderr.write('ENGAGE_ADMIN_TOKEN and ENGAGE_DEMO_OWNER_PASSWORD are required\n');
  process.exit(2);
}
const known = process.env.ENGAGE_DEMO_TENANT;
const demo = await provisionDemo(
  new AdminClient({ url, token }),
  ownerPassword,
  known ? (JSON.parse(known) as DemoTenant) : undefined,
);
process.stdout.write(`${JSON.stringify(demo)}\n`);

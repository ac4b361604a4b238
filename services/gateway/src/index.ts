export { buildApp, type GatewayDeps } from './app.ts';
export { DEMO_ENVIRONMENT, type DemoTenant, provisionDemo } from './tools/demo-tenant.ts';

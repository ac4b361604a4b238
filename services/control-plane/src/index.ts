export { buildApp, type ControlPlaneDeps } from './app.ts';
export {
  DEMO_ENVIRONMENT_FILE,
  type DemoTenant,
  provisionDemo,
  readDemoEnvironment,
} from './tools/demo-tenant.ts';

import type { Environment, Project } from '@engage/contracts/http/admin.ts';
import { api, unwrap } from '../api/client.ts';
import { useLoad } from './use-call.ts';

export interface EnvironmentInProject {
  project: Project;
  environment: Environment;
  /** "Project Sandbox", for headings and labels. */
  label: string;
}

/** The environment a page works on, found in its organization (there is no lookup by environment). */
export function useEnvironment(organizationId: string, environmentId: string) {
  return useLoad(async (): Promise<EnvironmentInProject> => {
    const org = await unwrap(
      api.GET('/admin/v1/organizations/{organizationId}', { params: { path: { organizationId } } }),
    );
    for (const project of org.projects) {
      for (const environment of [project.sandbox, project.live]) {
        if (environment.environmentId === environmentId) {
          return { project, environment, label: `${project.name} ${environment.kind}` };
        }
      }
    }
    throw new Error('This organization has no such environment.');
  }, [organizationId, environmentId]);
}

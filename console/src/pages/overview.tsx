import type { Environment, OrganizationUsage, Project, UsageMeter } from '@engage/contracts/http/admin.ts';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { PausedWebhooks } from '../components/paused-webhooks.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useLoad } from '../components/use-call.ts';

const BILLING_LABELS = { active: 'Active', none: 'No billing', overdue: 'Overdue' } as const;

/** The organization at a glance: billing, usage against its limits, each project's two environments. */
export function OverviewPage() {
  const { organizationId = '' } = useParams();
  const organization = useLoad(
    () =>
      unwrap(api.GET('/admin/v1/organizations/{organizationId}', { params: { path: { organizationId } } })),
    [organizationId],
  );
  if (organization.loading) return <Busy label="Loading the organization…" />;
  if (!organization.data) return <ProblemMessage error={organization.error} />;
  const org = organization.data;
  return (
    <>
      <h1>{org.name}</h1>
      <dl className="facts card">
        <div>
          <dt>Billing</dt>
          <dd>
            <span className={`badge billing-${org.billingStatus}`}>{BILLING_LABELS[org.billingStatus]}</span>
          </dd>
        </div>
        <div>
          <dt>Monthly active players cap (Live)</dt>
          <dd>{org.liveMonthlyActivePlayersCap?.toLocaleString('en') ?? 'No cap'}</dd>
        </div>
        <div>
          <dt>Projects</dt>
          <dd>{org.projects.length}</dd>
        </div>
      </dl>
      <Usage organizationId={organizationId} sandboxNames={sandboxNames(org.projects)} />
      <h2>Projects</h2>
      {org.projects.length === 0 && <p>No projects yet. Create one with `engage project create`.</p>}
      <ul className="projects">
        {org.projects.map((project) => (
          <li key={project.projectId} className="card">
            <h3>{project.name}</h3>
            <p>
              <Link
                to={`/organizations/${organizationId}/projects/${project.projectId}/promotion`}
                aria-label={`Promote Sandbox to Live of ${project.name}`}
              >
                Promote Sandbox to Live
              </Link>
            </p>
            <div className="environments">
              <EnvironmentCard
                organizationId={organizationId}
                project={project}
                environment={project.sandbox}
              />
              <EnvironmentCard organizationId={organizationId} project={project} environment={project.live} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

function EnvironmentCard(props: { organizationId: string; project: Project; environment: Environment }) {
  const { environment, project, organizationId } = props;
  const base = `/organizations/${organizationId}/environments/${environment.environmentId}`;
  const label = `${project.name} ${environment.kind}`;
  return (
    <section className={`environment env-${environment.kind.toLowerCase()}`} aria-label={label}>
      <h4>{environment.kind}</h4>
      <p>Discovery {environment.discovery ? 'on' : 'off'}</p>
      <RecentRefusals environmentId={environment.environmentId} />
      <PausedWebhooks organizationId={organizationId} environmentId={environment.environmentId} />
      <ul className="links">
        <li>
          <Link to={`${base}/api-keys`} aria-label={`API keys of ${label}`}>
            API keys
          </Link>
        </li>
        <li>
          <Link to={`${base}/content`} aria-label={`Content of ${label}`}>
            Content
          </Link>
        </li>
        <li>
          <Link to={`${base}/discovery`} aria-label={`Discovery of ${label}`}>
            Discovery
          </Link>
        </li>
        <li>
          <Link to={`${base}/players`} aria-label={`Players of ${label}`}>
            Players
          </Link>
        </li>
        <li>
          <Link to={`${base}/leaderboards`} aria-label={`Leaderboards of ${label}`}>
            Leaderboards
          </Link>
        </li>
        <li>
          <Link to={`${base}/events`} aria-label={`Events of ${label}`}>
            Events
          </Link>
        </li>
        <li>
          <Link to={`${base}/webhooks`} aria-label={`Webhooks of ${label}`}>
            Webhooks
          </Link>
        </li>
      </ul>
    </section>
  );
}

/** The refusals among the environment's recent event items (what the debugger keeps). */
function RecentRefusals({ environmentId }: { environmentId: string }) {
  const refused = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/events/recent', {
          params: { path: { environmentId }, query: { outcome: 'refused', limit: 1000 } },
        }),
      ),
    [environmentId],
  );
  if (!refused.data) return null;
  const count = refused.data.items.length;
  return (
    <p className={count > 0 ? 'refusal-count' : undefined}>
      {count === 0 ? 'No refused events recently' : `${count.toLocaleString('en')} refused events recently`}
    </p>
  );
}

const sandboxNames = (projects: Project[]) =>
  new Map(projects.map((project) => [project.sandbox.environmentId, project.name]));

/** Usage against the limits now: the Live cap, each Sandbox's limits, the in-flight limit's refusals. */
function Usage({
  organizationId,
  sandboxNames,
}: {
  organizationId: string;
  sandboxNames: Map<string, string>;
}) {
  const usage = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/organizations/{organizationId}/usage', { params: { path: { organizationId } } }),
      ),
    [organizationId],
  );
  if (usage.loading) return <Busy label="Loading usage…" />;
  if (!usage.data) return <ProblemMessage error={usage.error} />;
  const data: OrganizationUsage = usage.data;
  return (
    <section aria-label="Usage" className="card usage">
      <h2>Usage</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Used</th>
            <th scope="col">Of</th>
          </tr>
        </thead>
        <tbody>
          <MeterRow
            label={`Live monthly active players (${data.month})`}
            meter={data.liveMonthlyActivePlayers}
          />
          {data.sandboxes.map((sandbox) => {
            const name = sandboxNames.get(sandbox.environmentId) ?? sandbox.projectId;
            return [
              <MeterRow
                key={`${sandbox.environmentId}-players`}
                label={`${name} Sandbox players (${data.month})`}
                meter={sandbox.monthlyActivePlayers}
              />,
              <MeterRow
                key={`${sandbox.environmentId}-events`}
                label={`${name} Sandbox events today (${data.day})`}
                meter={sandbox.eventsToday}
              />,
            ];
          })}
          <tr className={data.requestsInFlight.refusedToday > 0 ? 'over' : undefined}>
            <th scope="row">Requests refused today for more than {data.requestsInFlight.limit} in flight</th>
            <td>{data.requestsInFlight.refusedToday.toLocaleString('en')}</td>
            <td />
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/** A limit's row: near (80 %) and at the limit are marked. */
function MeterRow({ label, meter }: { label: string; meter: UsageMeter }) {
  const share = meter.limit === null ? 0 : meter.used / meter.limit;
  const state = share >= 0.99 ? 'over' : share >= 0.8 ? 'near' : undefined;
  return (
    <tr className={state}>
      <th scope="row">{label}</th>
      <td>{meter.used.toLocaleString('en')}</td>
      <td>{meter.limit === null ? 'No cap' : meter.limit.toLocaleString('en')}</td>
    </tr>
  );
}

import type { WebhookEndpoint } from '@engage/contracts/http/webhooks.ts';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { canWrite, useMembership } from '../session/session.tsx';
import { ProblemMessage } from './status.tsx';
import { useAction, useLoad } from './use-call.ts';

/** Sets a paused endpoint active again: its kept deliveries are then sent, in order. */
export function resumeWebhook(webhookId: string) {
  return unwrap(
    api.PATCH('/admin/v1/webhooks/{webhookId}', {
      params: { path: { webhookId } },
      body: { status: 'active' },
    }),
  );
}

/** "Webhook endpoint … paused: <reason> — Resume", for the owner to see wherever they look first. */
export function PausedWebhookNotice(props: {
  endpoint: WebhookEndpoint;
  mayResume: boolean;
  resuming: boolean;
  onResume: () => void;
  pageLink?: string;
}) {
  const { endpoint } = props;
  const name = endpoint.description || endpoint.url;
  return (
    <div className="notice paused-webhook" role="alert">
      <p>
        Webhook endpoint <strong>{name}</strong> paused: {endpoint.pausedReason ?? 'paused by an operator'}
        {props.mayResume && (
          <>
            {' — '}
            <button
              type="button"
              className="primary"
              onClick={props.onResume}
              disabled={props.resuming}
              aria-label={`Resume ${name}`}
            >
              {props.resuming ? 'Resuming…' : 'Resume'}
            </button>
          </>
        )}
        {props.pageLink && (
          <>
            {' '}
            <Link to={props.pageLink}>See its deliveries</Link>
          </>
        )}
      </p>
    </div>
  );
}

/** The environment's paused webhook endpoints, for its card on the overview. */
export function PausedWebhooks(props: { organizationId: string; environmentId: string }) {
  const { organizationId, environmentId } = props;
  const mayResume = canWrite(useMembership(organizationId), 'webhooks');
  const endpoints = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/webhooks', { params: { path: { environmentId } } }),
      ),
    [environmentId],
  );
  const resume = useAction(async (webhookId: string) => {
    await resumeWebhook(webhookId);
    endpoints.reload();
  });
  const paused = (endpoints.data?.items ?? []).filter((endpoint) => endpoint.status === 'paused');
  if (paused.length === 0 && !resume.error) return null;
  return (
    <>
      {paused.map((endpoint) => (
        <PausedWebhookNotice
          key={endpoint.id}
          endpoint={endpoint}
          mayResume={mayResume}
          resuming={resume.busy}
          onResume={() => resume.run(endpoint.id)}
          pageLink={`/organizations/${organizationId}/environments/${environmentId}/webhooks`}
        />
      ))}
      <ProblemMessage error={resume.error} />
    </>
  );
}

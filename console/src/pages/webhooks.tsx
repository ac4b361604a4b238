import {
  type CreatedWebhookEndpoint,
  DEFAULT_RANK_THRESHOLD,
  MAX_RANK_THRESHOLD,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@engage/contracts/http/webhooks.ts';
import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { useCursorPages } from '../components/cursor-pages.tsx';
import { PausedWebhookNotice, resumeWebhook } from '../components/paused-webhooks.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

/** How often the endpoints' health and the open endpoint's deliveries are read again while visible. */
const REFRESH_MS = 2_000;
const DELIVERIES_PER_PAGE = 20;

const when = (iso: string | null) =>
  iso ? `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : '—';

const nameOf = (endpoint: WebhookEndpoint) => endpoint.description || endpoint.url;

/** Calls `refresh` every REFRESH_MS while the page is visible. */
function useRefresh(refresh: () => void) {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
}

/**
 * An environment's webhook endpoints: their health, paused ones first; an admin subscribes,
 * edits, pauses, resumes, rotates the secret, pings and deletes, and replays a delivery.
 */
export function WebhooksPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const mayWrite = canWrite(useMembership(organizationId), 'webhooks');
  const environment = useEnvironment(organizationId, environmentId);
  const endpoints = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/webhooks', { params: { path: { environmentId } } }),
      ),
    [environmentId],
  );
  useRefresh(endpoints.reload);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const resume = useAction(async (webhookId: string) => {
    await resumeWebhook(webhookId);
    endpoints.reload();
  });
  const items = endpoints.data?.items ?? [];
  const open = items.find((endpoint) => endpoint.id === openId) ?? null;

  return (
    <>
      <h1>Webhooks{environment.data ? ` · ${environment.data.label}` : ''}</h1>
      <ProblemMessage error={environment.error} />
      <p className="lead">
        The environment posts what happens to its players (missions completed, milestones, broken streaks,
        purchases, point adjustments, leaderboard results) to the endpoints subscribed here, signed with each
        endpoint's secret (Standard Webhooks). A failed delivery is retried; an endpoint that keeps failing is
        paused until resumed.
      </p>
      {items
        .filter((endpoint) => endpoint.status === 'paused')
        .map((endpoint) => (
          <PausedWebhookNotice
            key={endpoint.id}
            endpoint={endpoint}
            mayResume={mayWrite}
            resuming={resume.busy}
            onResume={() => resume.run(endpoint.id)}
          />
        ))}
      <ProblemMessage error={resume.error} />
      {mayWrite && (
        <CreateEndpoint
          environmentId={environmentId}
          onCreated={(endpoint) => {
            setCreated(endpoint);
            setOpenId(endpoint.id);
            endpoints.reload();
          }}
        />
      )}
      {created && (
        <ShownOnce
          heading={`Signing secret of ${nameOf(created)}`}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      {endpoints.loading && !endpoints.data && <Busy label="Loading the endpoints…" />}
      <ProblemMessage error={endpoints.error} />
      {endpoints.data && items.length === 0 && <p>No endpoints yet.</p>}
      {items.length > 0 && (
        <table>
          <caption className="visually-hidden">Webhook endpoints</caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Event types</th>
              <th scope="col">Status</th>
              <th scope="col">Last delivery</th>
              <th scope="col">Failures in a row</th>
              <th scope="col">Pending</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {items.map((endpoint) => (
              <tr key={endpoint.id}>
                <td>
                  {endpoint.description && <div>{endpoint.description}</div>}
                  <code>{endpoint.url}</code>
                </td>
                <td>{endpoint.eventTypes.join(', ')}</td>
                <td>
                  <span className={`badge webhook-${endpoint.status}`}>
                    {endpoint.status === 'paused' ? 'Paused' : 'Active'}
                  </span>
                </td>
                <td>
                  {endpoint.health.lastStatus === null
                    ? 'None yet'
                    : `${endpoint.health.lastStatus === 'delivered' ? 'Delivered' : 'Failed'} ${when(endpoint.health.lastDeliveryAt)}`}
                </td>
                <td>{endpoint.health.consecutiveFailures}</td>
                <td>{endpoint.health.pendingDeliveries}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => setOpenId(endpoint.id)}
                    aria-label={`Open ${nameOf(endpoint)}`}
                    aria-pressed={endpoint.id === openId}
                  >
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && (
        <EndpointDetail
          key={open.id}
          endpoint={open}
          mayWrite={mayWrite}
          onChanged={endpoints.reload}
          onDeleted={() => {
            setOpenId(null);
            endpoints.reload();
          }}
        />
      )}
    </>
  );
}

interface EndpointFields {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  rankThreshold: number;
}

/** URL, description, event types and rank threshold: the fields of a new or edited endpoint. */
function EndpointForm(props: {
  label: string;
  initial: EndpointFields;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: (fields: EndpointFields) => Promise<unknown>;
}) {
  const [fields, setFields] = useState(props.initial);
  const set = (change: Partial<EndpointFields>) => setFields((current) => ({ ...current, ...change }));
  const toggle = (type: WebhookEventType, on: boolean) =>
    set({
      eventTypes: on
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || fields.eventTypes.includes(t))
        : fields.eventTypes.filter((t) => t !== type),
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSubmit(fields);
  };
  return (
    <form onSubmit={submit} className="card stack" aria-label={props.label}>
      <label>
        URL
        <input
          type="url"
          required
          value={fields.url}
          onChange={(e) => set({ url: e.target.value })}
          placeholder="https://game.example/webhooks/engage"
        />
      </label>
      <label>
        Description (optional)
        <input value={fields.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <fieldset>
        <legend>Event types</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="inline-check">
            <input
              type="checkbox"
              checked={fields.eventTypes.includes(type)}
              onChange={(e) => toggle(type, e.target.checked)}
            />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <label>
        Rank threshold (leaderboard.rank_reached: a final rank at or above it is sent)
        <input
          type="number"
          min={1}
          max={MAX_RANK_THRESHOLD}
          value={fields.rankThreshold}
          onChange={(e) => set({ rankThreshold: Number(e.target.value) })}
        />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={props.busy || fields.eventTypes.length === 0}>
          {props.busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}

function CreateEndpoint(props: {
  environmentId: string;
  onCreated: (endpoint: CreatedWebhookEndpoint) => void;
}) {
  const [generation, setGeneration] = useState(0);
  const create = useAction(async (fields: EndpointFields) => {
    const endpoint = await unwrap(
      api.POST('/admin/v1/environments/{environmentId}/webhooks', {
        params: { path: { environmentId: props.environmentId } },
        body: fields,
      }),
    );
    setGeneration((g) => g + 1);
    props.onCreated(endpoint);
  });
  return (
    <section aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading">Add an endpoint</h2>
      <EndpointForm
        key={generation}
        label="Add a webhook endpoint"
        initial={{ url: '', description: '', eventTypes: [], rankThreshold: DEFAULT_RANK_THRESHOLD }}
        submitLabel="Add endpoint"
        busyLabel="Adding…"
        busy={create.busy}
        onSubmit={create.run}
      />
      <ProblemMessage error={create.error} />
    </section>
  );
}

/** A secret exists only in the answer that made it: shown once, with a copy button. */
function ShownOnce(props: { heading: string; secret: string; note?: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="card secret" aria-label={props.heading}>
      <h2>{props.heading}</h2>
      <p>
        <strong>Copy it now: you won't see it again.</strong> Your receiver verifies each delivery's{' '}
        <code>webhook-signature</code> with it.
      </p>
      {props.note && <p>{props.note}</p>}
      <div className="secret-row">
        <output aria-label="Signing secret" data-testid="webhook-secret">
          {props.secret}
        </output>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(props.secret);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" onClick={props.onDone}>
        Done
      </button>
    </section>
  );
}

/** One endpoint: its settings, its actions and its recent deliveries. */
function EndpointDetail(props: {
  endpoint: WebhookEndpoint;
  mayWrite: boolean;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { endpoint, mayWrite, onChanged } = props;
  const webhookId = endpoint.id;
  const path = { params: { path: { webhookId } } };
  const confirm = useConfirm();
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | null } | null>(
    null,
  );
  const [saved, setSaved] = useState(false);
  const deliveries = useCursorPages(
    async (cursor) => {
      const page = await unwrap(
        api.GET('/admin/v1/webhooks/{webhookId}/deliveries', {
          params: {
            path: { webhookId },
            query: { limit: DELIVERIES_PER_PAGE, ...(cursor ? { cursor } : {}) },
          },
        }),
      );
      return { entries: page.items, nextCursor: page.nextCursor };
    },
    [webhookId],
  );
  // Older pages stay as they are; the newest is read again to show attempts as they happen.
  useRefresh(() => {
    if (deliveries.onFirstPage) deliveries.reload();
  });
  const afterChange = () => {
    onChanged();
    deliveries.reload();
  };
  const update = useAction(async (fields: EndpointFields) => {
    setSaved(false);
    await unwrap(api.PATCH('/admin/v1/webhooks/{webhookId}', { ...path, body: fields }));
    setSaved(true);
    onChanged();
  });
  const setStatus = useAction(async (status: 'active' | 'paused') => {
    await unwrap(api.PATCH('/admin/v1/webhooks/{webhookId}', { ...path, body: { status } }));
    afterChange();
  });
  const ping = useAction(async () => {
    await unwrap(api.POST('/admin/v1/webhooks/{webhookId}/ping', path));
    afterChange();
  });
  const rotate = useAction(async () => {
    setRotated(await unwrap(api.POST('/admin/v1/webhooks/{webhookId}/rotate-secret', { ...path, body: {} })));
    onChanged();
  });
  const remove = useAction(async () => {
    await unwrap(api.DELETE('/admin/v1/webhooks/{webhookId}', path));
    props.onDeleted();
  });
  const replay = useAction(async (deliveryId: string) => {
    await unwrap(
      api.POST('/admin/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay', {
        params: { path: { webhookId, deliveryId } },
      }),
    );
    afterChange();
  });
  const name = nameOf(endpoint);

  return (
    <section aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">Endpoint {name}</h2>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>{endpoint.status === 'paused' ? `Paused ${when(endpoint.pausedAt)}` : 'Active'}</dd>
        </div>
        <div>
          <dt>Secret rotated</dt>
          <dd>{endpoint.secretRotatedAt ? when(endpoint.secretRotatedAt) : 'Never'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(endpoint.createdAt)}</dd>
        </div>
      </dl>
      {mayWrite ? (
        <>
          <div className="actions">
            <button type="button" onClick={() => ping.run()} disabled={ping.busy}>
              {ping.busy ? 'Sending…' : 'Send ping'}
            </button>
            {endpoint.status === 'active' ? (
              <button type="button" onClick={() => setStatus.run('paused')} disabled={setStatus.busy}>
                Pause
              </button>
            ) : (
              <button type="button" onClick={() => setStatus.run('active')} disabled={setStatus.busy}>
                Resume
              </button>
            )}
            <button
              type="button"
              disabled={rotate.busy}
              onClick={async () => {
                const yes = await confirm({
                  question: `Rotate the secret of ${name}?`,
                  consequence: 'The current one keeps signing for 24 hours.',
                  confirmLabel: 'Rotate secret',
                });
                if (yes) rotate.run();
              }}
            >
              Rotate secret
            </button>
            <button
              type="button"
              className="danger"
              disabled={remove.busy}
              onClick={async () => {
                const yes = await confirm({
                  question: `Delete ${name}?`,
                  consequence: 'Its deliveries, sent or not, are deleted with it.',
                  confirmLabel: 'Delete',
                  danger: true,
                });
                if (yes) remove.run();
              }}
            >
              Delete
            </button>
          </div>
          {[ping, setStatus, rotate, remove].map((action, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the four actions never change places.
            <ProblemMessage key={index} error={action.error} />
          ))}
          {rotated && (
            <ShownOnce
              heading={`New signing secret of ${name}`}
              secret={rotated.secret}
              note={
                rotated.previousSecretExpiresAt
                  ? `Deliveries are signed with both secrets until ${when(rotated.previousSecretExpiresAt)}; then only with this one.`
                  : 'The previous secret no longer signs deliveries.'
              }
              onDone={() => setRotated(null)}
            />
          )}
          <EndpointForm
            label={`Edit ${name}`}
            initial={{
              url: endpoint.url,
              description: endpoint.description,
              eventTypes: endpoint.eventTypes,
              rankThreshold: endpoint.rankThreshold,
            }}
            submitLabel="Save changes"
            busyLabel="Saving…"
            busy={update.busy}
            onSubmit={update.run}
          />
          <ProblemMessage error={update.error} />
          {saved && (
            <p role="status" className="muted">
              Saved.
            </p>
          )}
        </>
      ) : (
        <dl className="facts">
          <div>
            <dt>URL</dt>
            <dd>
              <code>{endpoint.url}</code>
            </dd>
          </div>
          <div>
            <dt>Event types</dt>
            <dd>{endpoint.eventTypes.join(', ')}</dd>
          </div>
          <div>
            <dt>Rank threshold</dt>
            <dd>{endpoint.rankThreshold}</dd>
          </div>
        </dl>
      )}
      <h3>Recent deliveries</h3>
      {deliveries.loading && !deliveries.data && <Busy label="Loading the deliveries…" />}
      <ProblemMessage error={deliveries.error} />
      <ProblemMessage error={replay.error} />
      {deliveries.data && deliveries.data.entries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries.data && deliveries.data.entries.length > 0 && (
        <DeliveryTable
          deliveries={deliveries.data.entries}
          mayReplay={mayWrite}
          replaying={replay.busy}
          onReplay={(id) => replay.run(id)}
        />
      )}
      {deliveries.pager}
    </section>
  );
}

function DeliveryTable(props: {
  deliveries: WebhookDelivery[];
  mayReplay: boolean;
  replaying: boolean;
  onReplay: (deliveryId: string) => void;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const columns = props.mayReplay ? 9 : 8;
  return (
    <table className="deliveries">
      <caption className="visually-hidden">Recent deliveries</caption>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Event type</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Response</th>
          <th scope="col">Time</th>
          <th scope="col">Last error</th>
          <th scope="col">Payload</th>
          {props.mayReplay && <th scope="col">Action</th>}
        </tr>
      </thead>
      <tbody>
        {props.deliveries.map((delivery) => (
          <Fragment key={delivery.id}>
            <tr className="delivery">
              <td>{when(delivery.createdAt)}</td>
              <td>
                <code>{delivery.eventType}</code>
                {delivery.playerId && <div className="muted">{delivery.playerId}</div>}
              </td>
              <td>
                <span className={`badge delivery-${delivery.status}`}>
                  {DELIVERY_STATUS[delivery.status]}
                </span>
                {delivery.status === 'pending' && delivery.nextAttemptAt && (
                  <div className="muted">next {when(delivery.nextAttemptAt)}</div>
                )}
              </td>
              <td>{delivery.attempts}</td>
              <td>{delivery.responseStatus ?? '—'}</td>
              <td>{delivery.responseTimeMs === null ? '—' : `${delivery.responseTimeMs} ms`}</td>
              <td>{delivery.lastError ?? '—'}</td>
              <td>
                <button
                  type="button"
                  className="link"
                  aria-expanded={shown === delivery.id}
                  aria-controls={`payload-${delivery.id}`}
                  onClick={() => setShown(shown === delivery.id ? null : delivery.id)}
                >
                  {shown === delivery.id ? 'Hide' : 'Show'}
                </button>
              </td>
              {props.mayReplay && (
                <td>
                  <button
                    type="button"
                    disabled={props.replaying || delivery.status === 'pending'}
                    onClick={() => props.onReplay(delivery.id)}
                    aria-label={`Replay ${delivery.eventType} ${delivery.id}`}
                  >
                    Replay
                  </button>
                </td>
              )}
            </tr>
            {shown === delivery.id && (
              <tr className="payload" id={`payload-${delivery.id}`}>
                <td colSpan={columns}>
                  <pre data-testid="webhook-payload">{JSON.stringify(delivery.payload, null, 2)}</pre>
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

const DELIVERY_STATUS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;

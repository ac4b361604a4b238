import { useParams } from 'react-router';
import { EventDebugger } from '../components/event-debugger.tsx';
import { EventDefinitions } from '../components/event-definitions.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useEnvironment } from '../components/use-environment.ts';

/** An environment's events: their definitions, and the live debugger of what its servers send. */
export function EventsPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const environment = useEnvironment(organizationId, environmentId);
  if (environment.loading && !environment.data) return <Busy label="Loading the environment…" />;
  if (!environment.data) return <ProblemMessage error={environment.error} />;
  return (
    <>
      <h1>Events · {environment.data.label}</h1>
      <EventDefinitions organizationId={organizationId} environmentId={environmentId} />
      <EventDebugger key={environmentId} environmentId={environmentId} />
    </>
  );
}

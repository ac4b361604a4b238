import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

type JournalEntry = components['schemas']['AdminJournalPage']['entries'][number];
type Mission = components['schemas']['Mission'];

const when = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : '—';

/** One player of an environment: find by id, then its points, journal, missions, streaks, standings. */
export function PlayersPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const environment = useEnvironment(organizationId, environmentId);
  const [search, setSearch] = useSearchParams();
  const playerId = search.get('player') ?? '';
  const [typed, setTyped] = useState(playerId);

  const find = (event: FormEvent) => {
    event.preventDefault();
    const id = typed.trim();
    if (id) setSearch({ player: id });
  };

  return (
    <>
      <h1>Players{environment.data ? ` · ${environment.data.label}` : ''}</h1>
      <ProblemMessage error={environment.error} />
      <form onSubmit={find} className="card inline-form" aria-label="Find a player">
        <label>
          Player id
          <input value={typed} onChange={(e) => setTyped(e.target.value)} name="playerId" />
        </label>
        <button type="submit" className="primary">
          Find
        </button>
      </form>
      {playerId && (
        <PlayerDetails
          key={playerId}
          organizationId={organizationId}
          environmentId={environmentId}
          playerId={playerId}
        />
      )}
    </>
  );
}

function PlayerDetails(props: { organizationId: string; environmentId: string; playerId: string }) {
  const { organizationId, environmentId, playerId } = props;
  const path = { environmentId, playerId };
  const membership = useMembership(organizationId);
  const [generation, setGeneration] = useState(0);
  const player = useLoad(
    () => unwrap(api.GET('/admin/v1/environments/{environmentId}/players/{playerId}', { params: { path } })),
    [environmentId, playerId],
  );
  const points = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/players/{playerId}/points', { params: { path } }),
      ),
    [environmentId, playerId, generation],
  );
  if (player.loading) return <Busy label="Looking the player up…" />;
  if (player.error || !player.data) return <ProblemMessage error={player.error} />;
  const attributes = Object.entries(player.data.attributes ?? {});
  return (
    <>
      <section className="card" aria-labelledby="player-heading">
        <h2 id="player-heading">
          Player <code>{playerId}</code>
        </h2>
        <dl className="facts">
          <div>
            <dt>Balance</dt>
            <dd data-testid="balance">{points.data ? `${points.data.balance} points` : '…'}</dd>
          </div>
          <div>
            <dt>Time zone</dt>
            <dd>{player.data.timeZone ?? '—'}</dd>
          </div>
        </dl>
        <ProblemMessage error={points.error} />
        <h3>Attributes</h3>
        {attributes.length === 0 ? (
          <p className="muted">No attributes.</p>
        ) : (
          <table>
            <caption className="visually-hidden">Attributes</caption>
            <thead>
              <tr>
                <th scope="col">Attribute</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {attributes.map(([key, value]) => (
                <tr key={key}>
                  <td>{key}</td>
                  <td>{JSON.stringify(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {canWrite(membership, 'players') && (
        <AdjustmentForm
          environmentId={environmentId}
          playerId={playerId}
          onDone={() => setGeneration((g) => g + 1)}
        />
      )}
      <Journal key={`journal-${generation}`} environmentId={environmentId} playerId={playerId} />
      <Missions environmentId={environmentId} playerId={playerId} />
      <Streaks environmentId={environmentId} playerId={playerId} />
      <Standings organizationId={organizationId} environmentId={environmentId} playerId={playerId} />
    </>
  );
}

/**
 * Support's adjustment. The idempotency key is made when a submission is first sent and kept until
 * it succeeds or the operator changes what it says, so sending the same adjustment again after a
 * failure (a lost answer, say) never moves the points twice.
 */
function AdjustmentForm(props: { environmentId: string; playerId: string; onDone: () => void }) {
  const { environmentId, playerId, onDone } = props;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [pendingKey, setPendingKey] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const adjust = useAction(async (key: string) => {
    const result = await unwrap(
      api.POST('/admin/v1/environments/{environmentId}/players/{playerId}/points/adjustments', {
        params: { path: { environmentId, playerId }, header: { 'Idempotency-Key': key } },
        body: { amount: Number(amount), reason },
      }),
    );
    setPendingKey(null);
    setAmount('');
    setReason('');
    setDone(`Adjusted by ${result.amount}: the balance is ${result.balance} points.`);
    onDone();
  });
  const edit = (change: () => void) => {
    change();
    setPendingKey(null);
    setDone(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = pendingKey ?? crypto.randomUUID();
    setPendingKey(key);
    adjust.run(key);
  };
  return (
    <form onSubmit={submit} className="card stack" aria-labelledby="adjust-heading">
      <h2 id="adjust-heading">Adjust points</h2>
      <label>
        Amount (negative to debit)
        <input
          type="number"
          step={1}
          required
          value={amount}
          onChange={(e) => edit(() => setAmount(e.target.value))}
          name="amount"
        />
      </label>
      <label>
        Reason
        <input
          required
          value={reason}
          onChange={(e) => edit(() => setReason(e.target.value))}
          name="reason"
        />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={adjust.busy}>
          {adjust.busy ? 'Adjusting…' : pendingKey && adjust.error ? 'Send again' : 'Adjust'}
        </button>
      </div>
      <ProblemMessage error={adjust.error} />
      {done && (
        <p role="status" className="done">
          {done}
        </p>
      )}
    </form>
  );
}

const JOURNAL_PAGE = 20;

/** The journal a page at a time, newest first; older pages are asked of the server as needed. */
function Journal({ environmentId, playerId }: { environmentId: string; playerId: string }) {
  const [cursors, setCursors] = useState<number[]>([]);
  const before = cursors[cursors.length - 1];
  const page = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/players/{playerId}/journal', {
          params: {
            path: { environmentId, playerId },
            query: { limit: JOURNAL_PAGE, ...(before === undefined ? {} : { before }) },
          },
        }),
      ),
    [environmentId, playerId, before],
  );
  const entries: JournalEntry[] = page.data?.entries ?? [];
  return (
    <section className="card" aria-labelledby="journal-heading">
      <h2 id="journal-heading">Points journal</h2>
      {page.loading && <Busy label="Loading the journal…" />}
      <ProblemMessage error={page.error} />
      {page.data && entries.length === 0 && <p className="muted">No entries.</p>}
      {entries.length > 0 && (
        <table>
          <caption className="visually-hidden">Points journal</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">Amount</th>
              <th scope="col">Balance after</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.transactionId}>
                <td>{when(entry.createdAtUtc)}</td>
                <td>{entry.kind}</td>
                <td>{entry.amount > 0 ? `+${entry.amount}` : entry.amount}</td>
                <td>{entry.balanceAfter}</td>
                <td>{entry.reason ?? <span className="muted">{entry.sourceRef ?? '—'}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Journal pages">
        <button
          type="button"
          onClick={() => setCursors((c) => c.slice(0, -1))}
          disabled={cursors.length === 0}
        >
          Newer
        </button>
        <span>Page {cursors.length + 1}</span>
        <button
          type="button"
          onClick={() => page.data?.nextBefore && setCursors((c) => [...c, page.data!.nextBefore!])}
          disabled={!page.data?.nextBefore}
        >
          Older
        </button>
      </nav>
    </section>
  );
}

function progressOf(mission: Mission): string {
  const done = mission.objectives.filter((o) => o.isSatisfied).length;
  return `${done} of ${mission.objectives.length} objectives`;
}

function Missions({ environmentId, playerId }: { environmentId: string; playerId: string }) {
  const missions = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/players/{playerId}/missions', {
          params: { path: { environmentId, playerId } },
        }),
      ),
    [environmentId, playerId],
  );
  return (
    <section className="card" aria-labelledby="missions-heading">
      <h2 id="missions-heading">Missions</h2>
      {missions.loading && <Busy label="Loading the missions…" />}
      <ProblemMessage error={missions.error} />
      {missions.data && missions.data.length === 0 && <p className="muted">No missions for this player.</p>}
      {missions.data && missions.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Missions</caption>
          <thead>
            <tr>
              <th scope="col">Mission</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
            {missions.data.map((m) => (
              <tr key={m.missionKey}>
                <td>{m.name}</td>
                <td>{m.status}</td>
                <td>{progressOf(m)}</td>
                <td>{when(m.completedAtUtc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Streaks({ environmentId, playerId }: { environmentId: string; playerId: string }) {
  const streaks = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/players/{playerId}/streaks', {
          params: { path: { environmentId, playerId } },
        }),
      ),
    [environmentId, playerId],
  );
  return (
    <section className="card" aria-labelledby="streaks-heading">
      <h2 id="streaks-heading">Streaks</h2>
      {streaks.loading && <Busy label="Loading the streaks…" />}
      <ProblemMessage error={streaks.error} />
      {streaks.data && streaks.data.length === 0 && <p className="muted">No streaks for this player.</p>}
      {streaks.data && streaks.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Streaks</caption>
          <thead>
            <tr>
              <th scope="col">Streak</th>
              <th scope="col">Status</th>
              <th scope="col">Current</th>
              <th scope="col">Longest</th>
            </tr>
          </thead>
          <tbody>
            {streaks.data.map((s) => (
              <tr key={s.streakKey}>
                <td>{s.name}</td>
                <td>{s.status}</td>
                <td>{s.currentCount}</td>
                <td>{s.longestCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The player's rank on every board of the environment it may see. */
function Standings(props: { organizationId: string; environmentId: string; playerId: string }) {
  const { organizationId, environmentId, playerId } = props;
  const standings = useLoad(async () => {
    const file = await unwrap(
      api.GET('/admin/v1/environments/{environmentId}/definition', { params: { path: { environmentId } } }),
    );
    const boards = (file.leaderboards ?? []) as { key: string; name?: unknown }[];
    return Promise.all(
      boards.map(async (board) => {
        const answer = await api.GET('/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}', {
          params: {
            path: { environmentId, leaderboardKey: board.key },
            query: { PlayerId: playerId, Top: 0 },
          },
        });
        return { key: board.key, view: answer.data };
      }),
    );
  }, [environmentId, playerId]);
  const base = `/organizations/${organizationId}/environments/${environmentId}/leaderboards`;
  return (
    <section className="card" aria-labelledby="standings-heading">
      <h2 id="standings-heading">Board standings</h2>
      {standings.loading && <Busy label="Loading the standings…" />}
      <ProblemMessage error={standings.error} />
      {standings.data && standings.data.length === 0 && <p className="muted">No leaderboards.</p>}
      {standings.data && standings.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Board standings</caption>
          <thead>
            <tr>
              <th scope="col">Board</th>
              <th scope="col">Rank</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {standings.data.map(({ key, view }) => (
              <tr key={key}>
                <td>
                  <Link
                    to={`${base}?board=${encodeURIComponent(key)}&player=${encodeURIComponent(playerId)}`}
                  >
                    {view?.leaderboard.name ?? key}
                  </Link>
                </td>
                <td>{view ? (view.leaderboard.me?.rank ?? 'Not ranked') : 'Not shown to this player'}</td>
                <td>{view?.leaderboard.me?.score ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

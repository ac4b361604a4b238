import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { usePage } from '../components/pager.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

type Entry = components['schemas']['AdminLeaderboardEntry'];
type BoardDefinition = { key: string; name?: unknown; topSize?: number };

const when = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : '—';

/** Boards are read as a player sees them (leagues and eligibility depend on the player). */
const AROUND = 5;
const DEFAULT_TOP_SIZE = 10;

/** An environment's leaderboards: the live board around a player, periods, settled results; settle a Sandbox's. */
export function LeaderboardsPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const environment = useEnvironment(organizationId, environmentId);
  const [search, setSearch] = useSearchParams();
  const boardKey = search.get('board') ?? '';
  const playerId = search.get('player') ?? '';
  const [typedBoard, setTypedBoard] = useState(boardKey);
  const [typedPlayer, setTypedPlayer] = useState(playerId);
  const [settlements, setSettlements] = useState(0);
  const boards = useLoad(async () => {
    const file = await unwrap(
      api.GET('/admin/v1/environments/{environmentId}/definition', { params: { path: { environmentId } } }),
    );
    return (file.leaderboards ?? []) as BoardDefinition[];
  }, [environmentId]);

  const show = (event: FormEvent) => {
    event.preventDefault();
    const board = typedBoard || boards.data?.[0]?.key || '';
    if (board && typedPlayer.trim()) setSearch({ board, player: typedPlayer.trim() });
  };
  const board = boards.data?.find((b) => b.key === boardKey);

  return (
    <>
      <h1>Leaderboards{environment.data ? ` · ${environment.data.label}` : ''}</h1>
      <ProblemMessage error={environment.error} />
      {boards.loading && <Busy label="Loading the boards…" />}
      <ProblemMessage error={boards.error} />
      {boards.data && boards.data.length === 0 && <p>This environment has no leaderboards.</p>}
      {boards.data && boards.data.length > 0 && (
        <form onSubmit={show} className="card inline-form" aria-label="Show a leaderboard">
          <label>
            Board
            <select value={typedBoard} onChange={(e) => setTypedBoard(e.target.value)} name="board">
              {boards.data.map((b) => (
                <option key={b.key} value={b.key}>
                  {typeof b.name === 'string' ? `${b.name} (${b.key})` : b.key}
                </option>
              ))}
            </select>
          </label>
          <label>
            As player
            <input
              value={typedPlayer}
              onChange={(e) => setTypedPlayer(e.target.value)}
              required
              name="playerId"
            />
          </label>
          <button type="submit" className="primary">
            Show
          </button>
        </form>
      )}
      {boardKey && (
        <Periods
          key={`periods-${boardKey}`}
          organizationId={organizationId}
          environmentId={environmentId}
          boardKey={boardKey}
          isSandbox={environment.data?.environment.kind === 'Sandbox'}
          onSettled={() => setSettlements((n) => n + 1)}
        />
      )}
      {boardKey && playerId && (
        <BoardViews
          key={`${boardKey}-${playerId}-${settlements}`}
          organizationId={organizationId}
          environmentId={environmentId}
          boardKey={boardKey}
          playerId={playerId}
          topSize={board?.topSize ?? DEFAULT_TOP_SIZE}
        />
      )}
    </>
  );
}

function BoardViews(props: {
  organizationId: string;
  environmentId: string;
  boardKey: string;
  playerId: string;
  topSize: number;
}) {
  const { organizationId, environmentId, boardKey, playerId, topSize } = props;
  const playersPath = `/organizations/${organizationId}/environments/${environmentId}/players`;
  const read = (previous: boolean) =>
    unwrap(
      api.GET('/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}', {
        params: {
          path: { environmentId, leaderboardKey: boardKey },
          query: {
            PlayerId: playerId,
            Top: topSize,
            Around: AROUND,
            ...(previous ? { Previous: true } : {}),
          },
        },
      }),
    );
  const live = useLoad(() => read(false), [environmentId, boardKey, playerId]);
  const settled = useLoad(() => read(true), [environmentId, boardKey, playerId]);
  const top = usePage(live.data?.top ?? [], 10);
  const results = usePage(settled.data?.top ?? [], 10);
  const me = live.data?.leaderboard.me;
  return (
    <>
      <section className="card" aria-labelledby="live-heading">
        <h2 id="live-heading">Live board{live.data ? ` · ${live.data.leaderboard.name}` : ''}</h2>
        {live.loading && <Busy label="Loading the board…" />}
        <ProblemMessage error={live.error} />
        {live.data && (
          <>
            <p data-testid="standing">
              <code>{playerId}</code>:{' '}
              {me?.rank ? `rank ${me.rank} with ${me.score}` : 'no score in this period'} ·{' '}
              {live.data.leaderboard.participants} participants · period{' '}
              {when(live.data.leaderboard.period.startsAtUtc)} to{' '}
              {when(live.data.leaderboard.period.endsAtUtc)}
            </p>
            {live.data.leaderboard.league && (
              <p>
                League tier {live.data.leaderboard.league.tierName ?? live.data.leaderboard.league.tierKey},
                group {live.data.leaderboard.league.group ?? '—'}
              </p>
            )}
            <EntryTable caption="Top" entries={top.rows} playersPath={playersPath} />
            {top.pager}
            <h3>Around the player</h3>
            {live.data.around.length === 0 ? (
              <p className="muted">The player has no rows around it.</p>
            ) : (
              <EntryTable caption="Around the player" entries={live.data.around} playersPath={playersPath} />
            )}
          </>
        )}
      </section>
      <section className="card" aria-labelledby="settled-heading">
        <h2 id="settled-heading">Last settled results</h2>
        {settled.loading && <Busy label="Loading the settled results…" />}
        <ProblemMessage error={settled.error} />
        {settled.data && !settled.data.isSettled && <p className="muted">No period has settled yet.</p>}
        {settled.data?.isSettled && (
          <>
            <p>
              Period {when(settled.data.leaderboard.period.startsAtUtc)} to{' '}
              {when(settled.data.leaderboard.period.endsAtUtc)}
              {settled.data.leaderboard.league?.movement &&
                ` · the player ${settled.data.leaderboard.league.movement.toLowerCase()}`}
            </p>
            <EntryTable
              caption="Settled results"
              entries={results.rows}
              playersPath={playersPath}
              withMovement
            />
            {results.pager}
          </>
        )}
      </section>
    </>
  );
}

/**
 * A board's rows. Operators see whose row it is: each player's id, linked to the player's page
 * (`playersPath`); a team board's rows are teams, named by their key.
 */
function EntryTable(props: {
  caption: string;
  entries: readonly Entry[];
  playersPath: string;
  withMovement?: boolean;
}) {
  return (
    <table>
      <caption className="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col">Score</th>
          {props.withMovement && <th scope="col">League move</th>}
        </tr>
      </thead>
      <tbody>
        {props.entries.map((entry) => (
          <tr
            key={`${entry.rank}-${entry.playerId ?? entry.displayName}`}
            className={entry.isMe ? 'is-me' : undefined}
          >
            <td>{entry.rank}</td>
            <td>
              {entry.playerId === undefined ? (
                (entry.displayName ?? <span className="muted">no display name</span>)
              ) : (
                <>
                  <Link to={`${props.playersPath}?player=${encodeURIComponent(entry.playerId)}`}>
                    {entry.playerId}
                  </Link>
                  {entry.displayName !== null && <span className="muted"> · {entry.displayName}</span>}
                </>
              )}
              {entry.isMe && ' (this player)'}
            </td>
            <td>{entry.score}</td>
            {props.withMovement && <td>{entry.movement ?? '—'}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The board's newest periods; in a Sandbox, a designer may settle the period in progress now. */
function Periods(props: {
  organizationId: string;
  environmentId: string;
  boardKey: string;
  isSandbox: boolean;
  onSettled: () => void;
}) {
  const { organizationId, environmentId, boardKey, isSandbox, onSettled } = props;
  const membership = useMembership(organizationId);
  const confirm = useConfirm();
  const periods = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}/periods', {
          params: { path: { environmentId, leaderboardKey: boardKey } },
        }),
      ),
    [environmentId, boardKey],
  );
  const [settledNote, setSettledNote] = useState<string | null>(null);
  const settle = useAction(async () => {
    const settled = await unwrap(
      api.POST('/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}/settle', {
        params: { path: { environmentId, leaderboardKey: boardKey } },
      }),
    );
    setSettledNote(`Settled the period with ${settled.participants} participants.`);
    periods.reload();
    onSettled();
  });
  return (
    <section className="card" aria-labelledby="periods-heading">
      <h2 id="periods-heading">Periods</h2>
      {isSandbox && canWrite(membership, 'definition') && (
        <div className="actions">
          <button
            type="button"
            disabled={settle.busy}
            onClick={async () => {
              const yes = await confirm({
                question: `Settle the period of ${boardKey} in progress now?`,
                consequence: 'Its results are final, as its end would make them.',
                confirmLabel: 'Settle now',
              });
              if (yes) settle.run();
            }}
          >
            {settle.busy ? 'Settling…' : 'Settle now'}
          </button>
        </div>
      )}
      <ProblemMessage error={settle.error} />
      {settledNote && <p role="status">{settledNote}</p>}
      {periods.loading && <Busy label="Loading the periods…" />}
      <ProblemMessage error={periods.error} />
      {periods.data && periods.data.periods.length === 0 && (
        <p className="muted">No period has started yet.</p>
      )}
      {periods.data && periods.data.periods.length > 0 && (
        <table>
          <caption className="visually-hidden">Periods</caption>
          <thead>
            <tr>
              <th scope="col">Starts</th>
              <th scope="col">Ends</th>
              <th scope="col">State</th>
              <th scope="col">Participants</th>
            </tr>
          </thead>
          <tbody>
            {periods.data.periods.map((p) => (
              <tr key={p.startsAtUtc}>
                <td>{when(p.startsAtUtc)}</td>
                <td>{when(p.endsAtUtc)}</td>
                <td>{p.state}</td>
                <td>{p.participants ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

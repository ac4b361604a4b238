import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { whenUtc } from './audit-entries.tsx';
import { usePage } from './pager.tsx';
import { Busy, ProblemMessage } from './status.tsx';

type RecentEvent = components['schemas']['AdminRecentEvent'];

/** How often the debugger asks for new items while the page is visible and not paused. */
const POLL_MS = 2_000;
const MAX_SHOWN = 1_000;

/**
 * The live event debugger: the environment's recent items, newest first, polled while the page is
 * visible (keyed by environment by its page, so another environment starts afresh). Asking with `watch=true` makes the gateway record accepted items too while it is open.
 */
export function EventDebugger({ environmentId }: { environmentId: string }) {
  const [items, setItems] = useState<RecentEvent[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [paused, setPaused] = useState(false);
  const [refusedOnly, setRefusedOnly] = useState(false);
  const [watchedUntil, setWatchedUntil] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** Only this player's items (asked of the server: the record holds every player's). */
  const [player, setPlayer] = useState('');
  const [typedPlayer, setTypedPlayer] = useState('');
  const newest = useRef<string | undefined>(undefined);

  const filterByPlayer = (event: FormEvent) => {
    event.preventDefault();
    if (typedPlayer.trim() === player) return;
    newest.current = undefined;
    setItems([]);
    setLoaded(false);
    setPlayer(typedPlayer.trim());
  };

  useEffect(() => {
    if (paused) return;
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const page = await unwrap(
          api.GET('/admin/v1/environments/{environmentId}/events/recent', {
            params: {
              path: { environmentId },
              query: {
                watch: 'true',
                limit: MAX_SHOWN,
                ...(player ? { playerId: player } : {}),
                ...(newest.current ? { after: newest.current } : {}),
              },
            },
          }),
        );
        if (stopped) return;
        setError(null);
        setWatchedUntil(page.watchedUntil);
        setLoaded(true);
        if (page.items.length > 0) {
          newest.current = page.items[0]!.id;
          setItems((shown) => [...page.items, ...shown].slice(0, MAX_SHOWN));
        }
      } catch (caught) {
        if (!stopped) setError(caught);
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [environmentId, paused, player]);

  const shown = refusedOnly ? items.filter((item) => !item.accepted) : items;
  const { rows, pager } = usePage(shown);
  return (
    <section aria-labelledby="debugger-heading">
      <h2 id="debugger-heading">Live debugger</h2>
      <p>
        Every item of the environment's recent <code>POST /v1/events</code> batches, newest first. Refused
        items are always recorded; accepted ones while this page is open.
      </p>
      <form className="inline-form" onSubmit={filterByPlayer} aria-label="Filter the recent events">
        <label>
          Player
          <input
            name="playerId"
            value={typedPlayer}
            onChange={(e) => setTypedPlayer(e.target.value)}
            placeholder="every player"
          />
        </label>
        <button type="submit">Filter</button>
        {player && (
          <button
            type="button"
            onClick={() => {
              setTypedPlayer('');
              newest.current = undefined;
              setItems([]);
              setLoaded(false);
              setPlayer('');
            }}
          >
            Show every player
          </button>
        )}
      </form>
      <div className="actions">
        <button type="button" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <label className="inline-check">
          <input type="checkbox" checked={refusedOnly} onChange={(e) => setRefusedOnly(e.target.checked)} />{' '}
          Refused only
        </label>
      </div>
      <p role="status" aria-live="polite" className="muted">
        {paused
          ? 'Paused: new items are not fetched.'
          : watchedUntil
            ? 'Watching: new items appear within seconds.'
            : 'Watching…'}
      </p>
      <ProblemMessage error={error} />
      {!loaded && !error && <Busy label="Loading the recent events…" />}
      {loaded && shown.length === 0 && (
        <p>
          No {refusedOnly ? 'refused ' : ''}items {player ? `of ${player} ` : ''}yet.
        </p>
      )}
      {shown.length > 0 && (
        <table className="recent-events">
          <caption className="visually-hidden">Recent events</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Player</th>
              <th scope="col">Event</th>
              <th scope="col">Outcome</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={item.id} className={item.accepted ? 'accepted' : 'refused'}>
                <td>{whenUtc(item.receivedAt)}</td>
                <td>{item.playerId ?? <span className="muted">none</span>}</td>
                <td>{item.eventKey ? <code>{item.eventKey}</code> : <span className="muted">none</span>}</td>
                <td>
                  <span className={`badge ${item.accepted ? 'outcome-accepted' : 'outcome-refused'}`}>
                    {item.accepted ? 'Accepted' : 'Refused'}
                  </span>
                </td>
                <td>
                  {item.accepted ? (
                    <span>
                      event <code>{item.eventId}</code>
                    </span>
                  ) : (
                    <ul className="refusals">
                      {item.errors.map((refusal) => (
                        <li key={`${refusal.code}-${refusal.path}`}>
                          <code>{refusal.code}</code>
                          {refusal.path && (
                            <span>
                              {' '}
                              at <code>{refusal.path}</code>
                            </span>
                          )}
                          : {refusal.message}
                        </li>
                      ))}
                    </ul>
                  )}
                  {item.properties && (
                    <details>
                      <summary>Properties{item.truncated ? ' (cut)' : ''}</summary>
                      <pre>{item.properties}</pre>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pager}
    </section>
  );
}

import { Counter, Gauge, metricsRegistry } from '@engage/kit';

/** How forwarded calls found their player: known to the replica, one read, or admission. */
export const playerResolutions = new Counter({
  name: 'engage_player_resolutions_total',
  help: 'Players of forwarded calls resolved, by what it took: known (no query), read, admission.',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

export const playerChangesListening = new Gauge({
  name: 'engage_player_changes_listening',
  help: '1 while this gateway listens to player changes (and keeps players), 0 otherwise.',
  registers: [metricsRegistry],
});

export const playerChangesLost = new Counter({
  name: 'engage_player_changes_connection_lost_total',
  help: 'Losses of the connection player changes arrive on (each clears the players kept).',
  registers: [metricsRegistry],
});

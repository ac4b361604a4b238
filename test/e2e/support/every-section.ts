import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';

/**
 * One of everything an environment file defines past its events and attributes, all counting
 * `level_completed` (with a number property `level`): a mission, one that needs accepting, a
 * collection, a streak, a shop item and collection, and a board. Tests that must reach every
 * operation's success answer start from it.
 */
export const EVERY_SECTION = {
  missions: [
    {
      key: 'three-levels',
      name: 'Three levels',
      objectives: [{ key: 'levels', event: 'level_completed', target: 3 }],
    },
    {
      key: 'opt-in',
      name: 'Opt in',
      optInMode: 'RequiresAcceptance',
      objectives: [{ key: 'o', event: 'level_completed' }],
    },
  ],
  missionCollections: [{ key: 'season', name: 'Season', missions: ['three-levels', 'opt-in'] }],
  streaks: [{ key: 'daily-play', name: 'Daily play', events: [{ event: 'level_completed' }] }],
  marketplace: {
    items: [
      {
        key: 'crown',
        name: 'Crown',
        priceInPoints: 1,
        contents: [{ catalogItemKey: 'crown', value: { type: 'number', value: 1 } }],
      },
    ],
    collections: [{ key: 'royal', name: 'Royal', items: ['crown'] }],
  },
  leaderboards: [
    {
      key: 'levels',
      name: 'Levels',
      scoreSource: { type: 'Event', event: 'level_completed', property: 'level' },
      aggregation: 'Max',
      topSize: 10,
    },
  ],
} satisfies EnvironmentFileInput;

import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';

/** One event and a mission its first occurrence completes, rewarded with 5 points. */
export const FIRST_LEVEL = {
  discovery: false,
  events: [
    { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
  ],
  missions: [
    {
      key: 'first-level',
      name: 'First level',
      objectives: [{ key: 'one', event: 'level_completed' }],
      rewards: [{ points: 5 }],
    },
  ],
} satisfies EnvironmentFileInput;

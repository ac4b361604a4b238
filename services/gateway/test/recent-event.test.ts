import { describe, expect, it } from 'vitest';
import { itemsToRecord } from '../src/domain/recent-event.ts';

const emoji = '\u{1F600}';

describe('what the event debugger keeps of an item', () => {
  it('cuts long text to its limit in characters, never inside a surrogate pair', () => {
    const items = [
      { eventKey: 'ping', playerId: emoji.repeat(200) },
      { eventKey: `a${emoji.repeat(250)}`, playerId: emoji.repeat(201) },
    ];
    const refused = { accepted: false, eventId: null, errors: [] };
    const [atLimit, overLimit] = itemsToRecord(
      items,
      [
        { index: 0, ...refused },
        { index: 1, ...refused },
      ],
      new Date(),
      { withAccepted: false, max: 10 },
    );
    expect(atLimit).toMatchObject({ playerId: emoji.repeat(200), truncated: false });
    expect(overLimit).toMatchObject({
      playerId: emoji.repeat(200),
      eventKey: `a${emoji.repeat(199)}`,
      truncated: true,
    });
  });
});

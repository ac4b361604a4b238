import { MAX_PLAYER_ID_LENGTH } from './common.ts';
import { MAX_NAMED_PLAYERS } from './resources.ts';

/**
 * How large a request head can be, derived from the contract's own limits so that every request
 * within them is read. The longest request target is a leaderboard read naming its player and
 * MAX_NAMED_PLAYERS others, every id at its longest and made of characters outside the BMP.
 */

/** One character in a URL: up to 4 bytes of UTF-8, each percent-encoded as 3 (`%F0%9F%98%80`). */
export const MAX_URL_BYTES_PER_CHARACTER = 12;

/** One player id parameter at its longest: `PlayerIds=`, the id, and the `&` before the next one. */
const LONGEST_PLAYER_ID_PARAMETER_BYTES =
  'PlayerIds='.length + MAX_PLAYER_ID_LENGTH * MAX_URL_BYTES_PER_CHARACTER + '&'.length;

/** The path (a key is at most 200 characters) and the read's other parameters, all short. */
const PATH_AND_OTHER_PARAMETERS_BYTES = 4 * 1024;

/** Longest request target (path and query) the public API reads. */
export const MAX_PUBLIC_URL_BYTES =
  (MAX_NAMED_PLAYERS + 1) * LONGEST_PLAYER_ID_PARAMETER_BYTES + PATH_AND_OTHER_PARAMETERS_BYTES;

/** The header fields of a request besides its target: Node's default for a whole head. */
export const MAX_HEADER_FIELDS_BYTES = 16 * 1024;

/** Largest request head (request line and header fields) the gateway reads. */
export const PUBLIC_MAX_HEADER_BYTES = MAX_PUBLIC_URL_BYTES + MAX_HEADER_FIELDS_BYTES;

/** Room for the gateway's internal headers, the player context with its attributes above all. */
const INTERNAL_HEADERS_BYTES = 1024 * 1024;

/** Largest request head the internal services read: a forwarded public request and the internal headers. */
export const INTERNAL_MAX_HEADER_BYTES = PUBLIC_MAX_HEADER_BYTES + INTERNAL_HEADERS_BYTES;

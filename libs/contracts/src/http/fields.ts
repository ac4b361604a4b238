/**
 * How a refused field is named in a problem code: `validation.<field>` with the field in snake case
 * (`PlayerId` and `playerId` both become `player_id`). A few fields have codes of their own in the
 * contract; those are listed here so every service answers them the same way.
 */
export function fieldCodeName(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase();
}

export interface FieldOverride {
  /** Code when the field is absent (or an empty string). */
  missing?: string;
  /** Code when the field is longer than allowed. */
  tooLong?: string;
}

export const FIELD_OVERRIDES: Record<string, FieldOverride> = {
  player_id: { missing: 'player.external_id_missing', tooLong: 'player.external_id_too_long' },
};

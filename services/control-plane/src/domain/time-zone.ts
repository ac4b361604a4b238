/** IANA time zone names (`Europe/Paris`, `UTC`); fixed offsets such as `+02:00` are refused. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const known = new Map<string, boolean>();

export function isIanaTimeZone(zone: string): boolean {
  if (zone.length > 64 || !ZONE_NAME.test(zone)) return false;
  let valid = known.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    if (known.size < 10_000) known.set(zone, valid);
  }
  return valid;
}

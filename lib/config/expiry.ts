/**
 * `workshop.expiresAt` against the host's own date: whether it has passed, and
 * an example expiry for the hints of config problems, made from the date the
 * command runs on (a fixed example date would itself lie in the past one day).
 */

/**
 * What the schema's messages say where an example expiry belongs; the
 * validation puts {@link expiryExample} of its own date there (the schema's
 * messages are static, the example is not).
 */
export const EXPIRY_EXAMPLE = '"<expiry example>"';

/** An expiry in the format `workshop.expiresAt` takes, quoted: the day after `now`, 18:00 UTC (always in the future). */
export function expiryExample(now: Date): string {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 18));
  return `"${tomorrow.toISOString().slice(0, 19)}Z"`;
}

/** `text` with {@link EXPIRY_EXAMPLE} replaced by the example for `now`. */
export function withExpiryExample(text: string, now: Date): string {
  return text.split(EXPIRY_EXAMPLE).join(expiryExample(now));
}

/** Whether a valid `workshop.expiresAt` is at or before `now`. */
export function hasExpired(expiresAt: string | undefined, now: Date): boolean {
  return expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime();
}

/** `2026-12-07T10:00Z`: a date and its minute, UTC, as messages about the expiry show the time now. */
export function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16)}Z`;
}

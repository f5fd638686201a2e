/**
 * A workshop whose `workshop.expiresAt` has passed: deploy refuses it (and
 * preflight fails it, as every request problem), synth notes it. The date is
 * the command's clock, so tests do not depend on the day they run.
 */
import { expiryExample, hasExpired, utcMinute as minute } from '../../config/expiry';
import { LabConfig } from '../../config/schema';
import { Finding } from '../checks/finding';

/** What is wrong with a past expiry, and its fix; undefined while it lies ahead (or is unset). */
function pastExpiry(config: LabConfig, now: Date): { readonly detail: string; readonly fix: string } | undefined {
  const expiresAt = config.workshop.expiresAt;
  if (!hasExpired(expiresAt, now)) return undefined;
  return {
    detail: `workshop.expiresAt ("${expiresAt}") has passed (it is ${minute(now)} now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists`,
    fix: `set workshop.expiresAt to when this workshop ends, e.g. ${expiryExample(now)}`,
  };
}

/** The `workshop expiry` request problem (see request-problems.ts), when the expiry has passed. */
export function expiryProblem(config: LabConfig, now: Date): Finding | undefined {
  const past = pastExpiry(config, now);
  return past && { check: 'workshop expiry', verdict: 'fail', ...past };
}

/** What synth says of a past expiry: it synthesizes, and names what deploy will refuse. */
export function expiryNote(config: LabConfig, now: Date): string | undefined {
  const past = pastExpiry(config, now);
  return past && `${past.detail}; deploy refuses it: ${past.fix}`;
}

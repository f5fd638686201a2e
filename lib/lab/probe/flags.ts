/**
 * The probe's flags (`--count`, `--concurrency`, `--max-in-flight`, `--timeout`, `--my-ip`),
 * defined once with the probe's limits: compare, verify and watch read and check them the same way;
 * and verify's `--wait`, with the readiness wait's figures (the time estimate counts them too).
 */
import { isIP } from 'node:net';
import { integerFlag, stringFlag } from '../../kit/cli/command';
import { PROBE_LIMITS } from './probe';

/** A probe setting within its {@link PROBE_LIMITS}. */
const limited = (limits: { readonly min: number; readonly max: number; readonly default: number }, value: string, description: string) => integerFlag({ ...limits, value, description });

export const countFlag = (description = 'requests per exposure') => limited(PROBE_LIMITS.count, 'N', description);
export const concurrencyFlag = (description = 'requests in flight per exposure') => limited(PROBE_LIMITS.concurrency, 'N', description);
export const maxInFlightFlag = (description = 'requests in flight over all exposures together') => limited(PROBE_LIMITS.maxInFlight, 'N', description);
/** `--timeout MS`, within `limits` (watch's default is its own). */
export const timeoutFlag = (limits: { readonly min: number; readonly max: number; readonly default: number } = PROBE_LIMITS.timeout) => limited(limits, 'MS', 'deadline of one request in ms');

/**
 * verify's readiness wait, which comes before its probe: every exposure's URL is polled (one request at a time, each
 * with a deadline, `intervalMs` apart) until it answers or `--wait` passes; the exposures are waited for side by side,
 * at most `inFlight` requests in flight over all of them (a room's hundreds of exposures: file descriptors, the venue's
 * NAT table), first come first served.
 */
export const READY_WAIT = { seconds: { min: 0, max: 1800, default: 300 }, intervalMs: 5000, requestTimeoutMs: 5000, inFlight: 64 } as const;

/** `--wait SECONDS`: how long verify waits for the exposures' load balancers to answer. */
export const waitFlag = (description: string) => integerFlag({ ...READY_WAIT.seconds, value: 'SECONDS', description });

/** `--my-ip ADDRESS`: the prober's public address as the load balancers see it. */
export const myIpFlag = (description: string) =>
  stringFlag({
    value: 'ADDRESS',
    description,
    parse: (text) => {
      if (isIP(text) === 0) throw new Error(`${JSON.stringify(text)} is not an IP address (e.g. 203.0.113.7)`);
      return text;
    },
  });

import { GkeSourceSecurityPolicy } from '../../../lib/constructs/gcp/gke-source-security-policy';
import { Json, resourceOf, synthScope } from '../../support/synth';

/** `count` distinct /32 blocks: 198.51.100.1/32, 198.51.100.2/32, ... */
const blocks = (count: number) => Array.from({ length: count }, (_, i) => `198.51.100.${i + 1}/32`);

const synth = (sourceRanges: readonly string[]) =>
  synthScope((scope) => {
    new GkeSourceSecurityPolicy(scope, 'source-policy', { name: 'lab-gke-sources', sourceRanges });
  });

const DEFAULT_RULE = {
  action: 'deny(403)',
  priority: 2147483647,
  description: 'hoplab: every other client',
  match: { versioned_expr: 'SRC_IPS_V1', config: { src_ip_ranges: ['*'] } },
};

describe('GkeSourceSecurityPolicy', () => {
  test.each([
    [1, [{ priority: 1000, ranges: blocks(1), description: 'hoplab: app.allowedSourceCidrs, block 1 of 1' }]],
    [10, [{ priority: 1000, ranges: blocks(10), description: 'hoplab: app.allowedSourceCidrs, blocks 1-10 of 10' }]],
    [
      11,
      [
        { priority: 1000, ranges: blocks(10), description: 'hoplab: app.allowedSourceCidrs, blocks 1-10 of 11' },
        { priority: 1001, ranges: blocks(11).slice(10), description: 'hoplab: app.allowedSourceCidrs, block 11 of 11' },
      ],
    ],
  ])('GIVEN %i CIDR blocks THEN allow rules of at most 10 blocks each, priorities from 1000, then the default rule denies with 403', (count, allows) => {
    const { config } = resourceOf(synth(blocks(count)).parsed, 'google_compute_security_policy');
    expect(config.name).toBe('lab-gke-sources');
    expect(config.type).toBe('CLOUD_ARMOR');
    expect(config.rule).toEqual([
      ...allows.map((allow) => ({
        action: 'allow',
        priority: allow.priority,
        description: allow.description,
        match: { versioned_expr: 'SRC_IPS_V1', config: { src_ip_ranges: allow.ranges } },
      })),
      DEFAULT_RULE,
    ]);
    for (const rule of config.rule as Json[]) expect(rule.match.config.src_ip_ranges.length).toBeLessThanOrEqual(10);
  });

  test('GIVEN no CIDR block THEN it refuses, naming the construct and what to give', () => {
    expect(() => synth([])).toThrow('GkeSourceSecurityPolicy source-policy: sourceRanges is empty; give at least one CIDR block, or the policy would deny every client');
  });
});

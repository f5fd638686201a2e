/**
 * verify's verdict from what it found, alone (verdictOf): every combination of
 * an exposure ready or not, its claims measured (as claimed, contradicted, not
 * measurable although it answered, no successful reply, not probed) and a
 * check left out. FAILED for what ran and failed, INCOMPLETE for what could not
 * be done, PASSED only when everything asked for ran and passed.
 */
import { checkClaims, ClaimCheck, ExposureClaims } from '../../../lib/commands/verify/claims';
import { ReadyResult } from '../../../lib/commands/verify/readiness';
import { DriftResult } from '../../../lib/commands/verify/drift';
import { renderVerifyMarkdown, Verdict, verdictOf, verdictSentence, VerifyReport } from '../../../lib/commands/verify/verify-report';
import { renderVerify } from '../../../lib/commands/verify/verify-cli';
import { CompareCell } from '../../../lib/lab/probe/compare-model';
import { ProbeResult } from '../../../lib/lab/probe/probe-summary';
import { PeerKind } from '../../../lib/lab/probe/peer';

/** A probe of 6 requests, `ok` of them answered, whose Pods saw these TCP peers; the prober's address known or not. */
function probe(ok: number, kinds: Partial<Record<PeerKind, number>>, prober: string | null = '198.51.100.7'): ProbeResult {
  return {
    url: 'http://lb.example/',
    planned: 6,
    sent: 6,
    ok,
    errors: ok < 6 ? { 'connection refused': 6 - ok } : {},
    gave_up: false,
    latency_ms: null,
    pods: {},
    nodes: {},
    client_ip: { prober_address: prober, peer_kinds: kinds, forwarded_for_names_prober: 0, preserved: null, summary: 'measured' } as ProbeResult['client_ip'],
    source_node: {} as ProbeResult['source_node'],
  };
}

const CLAIMS: ExposureClaims = { source_nat: false, client_ip_via: 'tcp-source', client_ip_preserved: null };
const cell = (p: ProbeResult | null, notProbed: string | null = null): CompareCell => ({ exposure: { url: 'http://lb.example/' } as CompareCell['exposure'], probe: p, not_probed_because: notProbed });
const check = (c: CompareCell, claims = CLAIMS): ClaimCheck => checkClaims('lab', 'aws', 'nodeport-local', c, claims);

/** What the claims check found, by name. */
const CLAIM_CASES = {
  'as claimed': check(cell(probe(6, { prober: 6 }))),
  contradicted: check(cell(probe(6, { node: 6 }))),
  // It answered; the prober's own address is unknown, so where the Pod finds the client cannot be told.
  'not measurable (address unknown)': check(cell(probe(6, { other: 6 }, null))),
  // It answered; the output claims nothing to measure against.
  'not measurable (not claimed)': check(cell(probe(6, { prober: 6 })), { source_nat: null, client_ip_via: null, client_ip_preserved: null }),
  'no successful reply': check(cell(probe(0, {}))),
  'not probed (no URL)': check(cell(null, 'no URL in the output (not deployed yet?)')),
} as const;
type ClaimCase = keyof typeof CLAIM_CASES;

const ready = (yes: boolean): ReadyResult => ({ label: 'lab aws nodeport-local', url: 'http://lb.example/', ready: yes, seconds: 1, attempts: 1, last: yes ? 'HTTP 200' : 'ECONNREFUSED' });
const CLEAN: DriftResult = { stack: 'lab-aws-lb', status: 'clean', resources: [], outside_changes: [], error: null, seconds: 1 };
const LEFT_OUT = { check: 'drift' as const, what: 'lab-gcp-lb', why: 'gcp: no credentials' };

/** What each combination of ready and claims gives, nothing else wrong: [without a check left out, with one]. */
const EXPECTED: Record<ClaimCase, readonly [Verdict, Verdict]> = {
  'as claimed': ['passed', 'incomplete'],
  contradicted: ['failed', 'failed'],
  'not measurable (address unknown)': ['incomplete', 'incomplete'],
  'not measurable (not claimed)': ['incomplete', 'incomplete'],
  'no successful reply': ['failed', 'failed'],
  'not probed (no URL)': ['failed', 'failed'],
};

const cases = (Object.keys(CLAIM_CASES) as ClaimCase[]).flatMap((claim) =>
  [true, false].flatMap((isReady) => [false, true].map((leftOut) => ({ claim, isReady, leftOut, verdict: isReady ? EXPECTED[claim][leftOut ? 1 : 0] : ('failed' as Verdict) }))),
);

describe('the verdict of every combination', () => {
  test('the claim cases are what their names say', () => {
    expect(Object.fromEntries(Object.entries(CLAIM_CASES).map(([name, c]) => [name, [c.status, c.probe?.ok ?? null]]))).toEqual({
      'as claimed': ['match', 6],
      contradicted: ['contradiction', 6],
      'not measurable (address unknown)': ['not-measured', 6],
      'not measurable (not claimed)': ['not-measured', 6],
      'no successful reply': ['not-measured', 0],
      'not probed (no URL)': ['not-measured', null],
    });
  });

  test.each(cases)('GIVEN ready $isReady, claims $claim, a check left out $leftOut WHEN judged THEN $verdict', ({ claim, isReady, leftOut, verdict }) => {
    expect(verdictOf({ problems: [], drift: [CLEAN], readiness: [ready(isReady)], claims: [CLAIM_CASES[claim]], left_out: leftOut ? [LEFT_OUT] : [] })).toBe(verdict);
  });

  test.each([
    ['a problem', { problems: ['x'] }],
    ['drift', { drift: [{ ...CLEAN, status: 'drift' as const }] }],
    ['a plan that could not run', { drift: [{ ...CLEAN, status: 'error' as const, error: 'boom' }] }],
  ])('GIVEN everything else passed and %s WHEN judged THEN failed', (_what, found) => {
    expect(verdictOf({ problems: [], drift: [CLEAN], readiness: [ready(true)], claims: [CLAIM_CASES['as claimed']], left_out: [], ...found })).toBe('failed');
  });

  test('GIVEN only checks left out (nothing ran) WHEN judged THEN incomplete, never passed', () => {
    expect(verdictOf({ problems: [], drift: [], readiness: [], claims: [], left_out: [LEFT_OUT] })).toBe('incomplete');
  });
});

describe('an exposure that answered but whose claims could not be measured, in words', () => {
  const report = (claims: ClaimCheck[], leftOut = [] as (typeof LEFT_OUT)[]): VerifyReport => {
    const found = { problems: [], drift: [CLEAN], readiness: [ready(true)], claims, left_out: leftOut };
    const verdict = verdictOf(found);
    return {
      schema: 'hoplab.verify/v1',
      started_at: '2026-12-01T00:00:00.000Z',
      finished_at: '2026-12-01T00:01:00.000Z',
      environments: ['lab'],
      stacks: ['lab-aws-lb'],
      emulator: null,
      versions: { hoplab: '0.1.0', terraform: '1.11.4', providers: {} },
      prober_address: null,
      ...found,
      verdict,
      ok: verdict === 'passed',
      files: { markdown: 'r.md', json: 'r.json' },
    };
  };

  test('GIVEN one such exposure WHEN reported THEN INCOMPLETE, and the sentence says why', () => {
    const r = report([CLAIM_CASES['not measurable (address unknown)']]);
    expect(verdictSentence(r)).toBe(
      'nothing that ran failed, but 1 exposure answered but its claims could not be measured (see "NOT MEASURED"); fix what they name, or verify only what can run here (with HOPLAB_AWS_ENDPOINT: --stacks aws-cluster), for a verdict',
    );
    expect(renderVerify(r, 'table').split('\n')[0]).toBe('hoplab verify: INCOMPLETE (lab)');
    expect(renderVerifyMarkdown(r)).toContain('# hoplab verify: INCOMPLETE');
    expect(renderVerifyMarkdown(r)).toContain('- hoplab 0.1.0, Terraform 1.11.4');
  });

  test('GIVEN such exposures and a check left out WHEN reported THEN the sentence names both', () => {
    const r = report([CLAIM_CASES['not measurable (address unknown)'], CLAIM_CASES['not measurable (not claimed)']], [LEFT_OUT]);
    expect(verdictSentence(r)).toMatch(/^nothing that ran failed, but 1 check asked for did not run \(see "Left out"\), and 2 exposures answered but their claims could not be measured/);
  });
});

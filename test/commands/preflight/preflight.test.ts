/**
 * runPreflight as a whole, without credentials: every reason deploy would refuse the request is
 * a failing finding, found in the same run as everything else.
 */
import { labConfig } from '../../../lib/config/schema';
import { runPreflight } from '../../../lib/commands/preflight/preflight';
import { REQUEST_CHECKS } from '../../../lib/lab/selection/request-problems';
import { deadUrl } from '../../support/echo-servers';
import { renderFindings } from '../../../lib/lab/checks/finding';

describe('preflight of the placeholder config', () => {
  test('GIVEN the default config WHEN preflight runs THEN it fails on every reason deploy refuses: the placeholder project and the world-open endpoints', async () => {
    const dead = await deadUrl();
    const result = await runPreflight({
      config: labConfig.parse({}),
      myIp: '203.0.113.7',
      registryUrl: dead,
      awsApi: dead,
      runTool: () => ({ ok: false, output: 'not found on the PATH' }),
    });
    const request = result.findings.filter((f) => (REQUEST_CHECKS as readonly string[]).includes(f.check));
    expect(request).toEqual([
      {
        check: 'gcp project',
        verdict: 'fail',
        detail: 'gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config',
        fix: 'set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
      },
      {
        check: 'api endpoints',
        verdict: 'fail',
        detail: 'aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) and gcp.masterAuthorizedCidrs (["0.0.0.0/0"]) would open the cluster API endpoints to any address on the internet',
        fix:
          'set them to the addresses you and the attendees deploy and run kubectl from, e.g. your own as "<ip>/32" ' +
          '(curl https://checkip.amazonaws.com shows it), or set allowWorldOpenEndpoints: true in the config to deploy them open',
      },
    ]);
    expect(result.findings.find((f) => f.check === 'gcp')).toEqual({ check: 'gcp', verdict: 'skip', detail: 'not checked: gcp.project is the placeholder "hoplab-demo" (see gcp project)' });
    expect(result.findings.find((f) => f.check === 'default quotas')).toMatchObject({ verdict: 'pass' });
    expect(result.ok).toBe(false);
  });

  test("GIVEN workshop.expiresAt before the date preflight runs on WHEN preflight runs THEN the expiry is a failing finding, with deploy refusal's words; the day before, it is none", async () => {
    const dead = await deadUrl();
    const check = (now: string) =>
      runPreflight({
        config: labConfig.parse({ workshop: { expiresAt: '2026-12-01T18:00:00Z' } }),
        kinds: ['aws-cluster'],
        myIp: '203.0.113.7',
        registryUrl: dead,
        awsApi: dead,
        runTool: () => ({ ok: false, output: 'not found on the PATH' }),
        now: new Date(now),
      });
    const after = await check('2026-12-07T10:00:00Z');
    expect(after.findings.filter((f) => f.check === 'workshop expiry')).toEqual([
      {
        check: 'workshop expiry',
        verdict: 'fail',
        detail:
          'workshop.expiresAt ("2026-12-01T18:00:00Z") has passed (it is 2026-12-07T10:00Z now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists',
        fix: 'set workshop.expiresAt to when this workshop ends, e.g. "2026-12-08T18:00:00Z"',
      },
    ]);
    expect(after.ok).toBe(false);
    const before = await check('2026-11-30T10:00:00Z');
    expect(before.findings.filter((f) => f.check === 'workshop expiry')).toEqual([]);
  });

  test.each([
    ['outside a narrowed list, lb stacks selected', ['198.51.100.0/24'], ['aws-cluster', 'aws-lb'], 'warn'],
    ['inside a narrowed list', ['203.0.113.0/24'], ['aws-cluster', 'aws-lb'], 'pass'],
    ['outside, but no lb stack selected', ['198.51.100.0/24'], ['aws-cluster'], undefined],
    ['under the default list (any address)', ['0.0.0.0/0'], ['aws-cluster', 'aws-lb'], undefined],
  ] as const)('GIVEN the host %s WHEN preflight runs THEN app.allowedSourceCidrs is checked against its address: %#', async (_, allowedSourceCidrs, kinds, verdict) => {
    const dead = await deadUrl();
    const result = await runPreflight({
      config: labConfig.parse({ app: { allowedSourceCidrs } }),
      kinds,
      myIp: '203.0.113.7',
      registryUrl: dead,
      awsApi: dead,
      runTool: () => ({ ok: false, output: 'not found on the PATH' }),
    });
    const finding = result.findings.find((f) => f.check === 'host address app');
    expect(finding?.verdict).toBe(verdict);
    if (verdict === 'warn') {
      expect(finding).toEqual({
        check: 'host address app',
        verdict: 'warn',
        detail:
          "203.0.113.7 (from --my-ip) is outside app.allowedSourceCidrs 198.51.100.0/24: the lab's load balancers do not answer it (AWS's and GKE's L4 ones drop its packets; GKE's Ingress and Gateway answer 403 from Cloud Armor), so verify and compare --probe from here measure nothing",
        fix: 'run verify and compare --probe from an address inside the list, or add 203.0.113.7/32 to app.allowedSourceCidrs and deploy again',
      });
    }
  });
});

describe('preflight of a placed lab', () => {
  const names = Array.from({ length: 6 }, (_, i) => `a${i + 1}`);
  const run = async (raw: unknown) => {
    const dead = await deadUrl();
    return runPreflight({ config: labConfig.parse(raw), myIp: '203.0.113.7', registryUrl: dead, awsApi: dead, runTool: () => ({ ok: false, output: 'not found on the PATH' }) });
  };

  test('GIVEN 6 attendees over two regions and two projects WHEN preflight runs THEN the defaults are checked per slot, the slots it cannot read with credentials are said, and the placement is reported', async () => {
    const result = await run({ attendees: names, aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'] } });
    expect(result.findings.find((f) => f.check === 'default quotas')).toEqual({
      check: 'default quotas',
      verdict: 'pass',
      detail: "6 environments fit AWS's and Google Cloud's default limits (checked without credentials)",
    });
    expect(result.findings.find((f) => f.check === 'aws quotas of other slots')).toEqual({
      check: 'aws quotas of other slots',
      verdict: 'warn',
      detail: 'checked with credentials: host/us-east-1 only; host/us-east-2 against the documented defaults only',
      fix: 'check each slot in its Service Quotas or IAM & Admin > Quotas console until preflight reads every slot with its own credentials',
    });
    expect(result.placement?.report.slots.map((s) => [s.slot, s.environments.length])).toEqual([
      ['host/us-east-1', 4],
      ['host/us-east-2', 2],
      ['lab-one-1/us-central1', 4],
      ['lab-two-2/us-central1', 2],
    ]);
    // The JSON form carries it as `placement`.
    const json = JSON.parse(renderFindings(result.findings, 'json', { ...result.meta, placement: result.placement!.report }));
    expect(json.placement.slots).toHaveLength(4);
  });

  test('GIVEN 6 attendees and perSlot 6 in one region WHEN preflight runs THEN each quota over its default is a warning naming its slot', async () => {
    const result = await run({ attendees: names, aws: { regions: ['us-east-1', 'us-east-2'] }, placement: { perSlot: { aws: 6 } } });
    expect(result.findings.filter((f) => f.check.startsWith('aws default quota')).map((f) => f.check)).toEqual([
      'aws default quota vpcs',
      'aws default quota internetGateways',
      'aws default quota natGatewaysPerAz',
      'aws default quota elasticIps',
    ]);
    expect(result.findings.find((f) => f.check === 'aws default quota vpcs')?.detail).toBe(
      "VPCs per Region: 6 environments need 6 in us-east-1, 7 with the default VPC of every region of a fresh account (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (checked without credentials)",
    );
  });

  test('GIVEN a config without placement WHEN preflight runs THEN it reports no placement', async () => {
    expect((await run({})).placement).toBeUndefined();
  });
});

/**
 * runPreflight as a whole, without credentials: every reason deploy would refuse the request is
 * a failing finding, found in the same run as everything else.
 */
import { labConfig } from '../../../lib/config/schema';
import { runPreflight } from '../../../lib/commands/preflight/preflight';
import { REQUEST_CHECKS } from '../../../lib/lab/selection/request-problems';
import { deadUrl } from '../../support/echo-servers';

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

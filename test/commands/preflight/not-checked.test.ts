/**
 * Preflight without credentials says what it did not check, in the terminal
 * table and in the JSON alike: the IAM simulation, the APIs, the account's
 * and project's own quotas, the free names (each a `skip` finding after the
 * failed identity). No credentials: the AWS API is a dead loopback port, and
 * Google's token is refused by a dead tokeninfo.
 */
import { labConfig } from '../../../lib/config/schema';
import { runPreflight } from '../../../lib/commands/preflight/preflight';
import { renderFindings } from '../../../lib/lab/checks/finding';
import { deadUrl } from '../../support/echo-servers';

describe('preflight without credentials', () => {
  test('GIVEN no AWS identity and a refused Google token WHEN preflight runs THEN the terminal and the JSON list each check that did not run, and why', async () => {
    const dead = await deadUrl();
    const result = await runPreflight({
      config: labConfig.parse({ gcp: { project: 'my-lab-project', masterAuthorizedCidrs: ['203.0.113.7/32'] }, aws: { endpointPublicAccessCidrs: ['203.0.113.7/32'] } }),
      myIp: '203.0.113.7',
      registryUrl: dead,
      awsApi: dead,
      googleAccessToken: 'ya29.refused',
      googleApis: { tokenInfo: dead, compute: dead, container: dead, iam: dead, resourceManager: dead, serviceUsage: dead },
      runTool: () => ({ ok: false, output: 'not found on the PATH' }),
    });
    // The skips that say what did not run (the `quota needs` skips list what the slots take, for the checks with credentials).
    const skipped = result.findings.filter((f) => f.verdict === 'skip' && !f.check.endsWith('quota needs')).map((f) => [f.check, f.detail.replace(/^(not checked \([^)]*\)): .*/, '$1')]);
    expect(skipped).toEqual([
      ['aws cluster admins', 'not checked (no AWS identity)'],
      ['aws permissions', 'not checked (no AWS identity)'],
      ['aws slots not checked', 'no identity in host account, so host/us-east-1 was not checked with credentials: zones, quotas (vCPUs included) and names'],
      ['gcp apis', 'not checked (the Google token was refused)'],
      ['gcp permissions', 'not checked (the Google token was refused)'],
      ['gcp zones', 'not checked (the Google token was refused)'],
      ['gcp quotas', 'not checked (the Google token was refused)'],
      ['gcp names', 'not checked (the Google token was refused)'],
    ]);
    expect(result.findings.find((f) => f.check === 'aws permissions')?.detail).toMatch(/^not checked \(no AWS identity\): IAM policy simulation of the \d+ actions the stacks need$/);

    const table = renderFindings(result.findings, 'table', result.meta);
    expect(table).toMatch(/^skip {2}aws permissions +not checked \(no AWS identity\): IAM policy simulation of the \d+ actions the stacks need$/m);
    expect(table).toMatch(/^skip {2}gcp apis +not checked \(the Google token was refused\): whether the \d+ APIs the stacks call are enabled \(cloudresourcemanager\.googleapis\.com, /m);
    const json = JSON.parse(renderFindings(result.findings, 'json', result.meta)) as { findings: { check: string; verdict: string }[] };
    expect(json.findings.filter((f) => f.verdict === 'skip' && !f.check.endsWith('quota needs')).map((f) => f.check)).toEqual(skipped.map(([check]) => check));
  });
});

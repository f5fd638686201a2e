/**
 * Preflight's host checks (tools, provider sources, the host's public address),
 * the report formats and the gate deploy runs.
 */
import { createServer, Server } from 'node:http';
import { labConfig } from '../../../lib/config/schema';
import { AddressInfo } from 'node:net';
import { renderFindings } from '../../../lib/lab/checks/finding';
import { addressFindings, learnPublicAddress, providerSourceFinding, ToolRunner, toolFindings } from '../../../lib/lab/checks/host-checks';
import { preflightGate } from '../../../lib/commands/preflight/preflight-cli';
import { deadUrl } from '../../support/echo-servers';

async function textServer(body: string, status = 200): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('tools', () => {
  const tools =
    (answers: Record<string, { ok: boolean; output: string }>): ToolRunner =>
    (command) =>
      answers[command] ?? { ok: false, output: 'not found on the PATH' };

  test('GIVEN terraform 1.9, the AWS CLI v1 and no auth plugin WHEN checked THEN each fails with its fix', () => {
    const findings = toolFindings(
      { awsCli: true, gcloud: true, gkeAuthPlugin: true },
      tools({
        terraform: { ok: true, output: '{"terraform_version":"1.9.8"}' },
        aws: { ok: true, output: 'aws-cli/1.45.11 Python/3.11.7' },
        gcloud: { ok: true, output: 'Google Cloud SDK 528.0.0\nbq 2.1.0' },
      }),
    );
    expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
      ['terraform', 'fail', 'Terraform 1.9.8 is older than 1.10'],
      ['aws cli', 'fail', 'AWS CLI 1.45.11 is v1'],
      ['gcloud', 'pass', 'Google Cloud SDK 528.0.0'],
      ['gke-gcloud-auth-plugin', 'fail', 'gke-gcloud-auth-plugin: not found on the PATH'],
    ]);
    expect(findings[3].fix).toBe('gcloud components install gke-gcloud-auth-plugin');
  });

  test('GIVEN terraform 1.11 with CLI-config warnings around its JSON and the AWS CLI v2 WHEN checked THEN both pass; unneeded tools are not asked', () => {
    const findings = toolFindings(
      { awsCli: true, gcloud: false, gkeAuthPlugin: false },
      tools({
        terraform: { ok: true, output: '{\n  "terraform_version": "1.11.4"\n}\nWarning: Unable to open CLI configuration file' },
        aws: { ok: true, output: 'aws-cli/2.27.1 Python/3.13.2 Linux' },
      }),
    );
    expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
      ['terraform', 'pass', 'Terraform 1.11.4'],
      ['aws cli', 'pass', 'AWS CLI 2.27.1'],
    ]);
  });
});

describe('provider sources and the host address', () => {
  test('GIVEN the registry unreachable WHEN checked THEN it fails; the emulator uses the mirror instead', async () => {
    const offline = await providerSourceFinding({ emulator: false, registryUrl: await deadUrl(), timeoutMs: 2000 });
    expect(offline).toMatchObject({ check: 'provider sources', verdict: 'fail' });
    expect(offline.detail).toMatch(/^127\.0\.0\.1:\d+ is not reachable/);
    expect(await providerSourceFinding({ emulator: true, mirror: '/opt/tf-plugins' })).toEqual({
      check: 'provider sources',
      verdict: 'pass',
      detail: 'filesystem mirror /opt/tf-plugins (emulator mode installs from it only)',
    });
  });

  test('GIVEN the address service answers WHEN the address is outside one allow-list THEN that list fails with the fix', async () => {
    const api = await textServer('198.51.100.23\n');
    try {
      const learned = await learnPublicAddress({ url: api.url });
      expect(learned).toEqual({ address: '198.51.100.23', source: api.url });
      const findings = addressFindings(learned, [
        { field: 'aws.endpointPublicAccessCidrs', cidrs: ['198.51.100.0/24'] },
        { field: 'gcp.masterAuthorizedCidrs', cidrs: ['203.0.113.0/24'] },
      ]);
      expect(findings).toEqual([
        { check: 'host address aws', verdict: 'pass', detail: `198.51.100.23 (from ${api.url}) is inside aws.endpointPublicAccessCidrs 198.51.100.0/24` },
        {
          check: 'host address gcp',
          verdict: 'fail',
          detail: `198.51.100.23 (from ${api.url}) is outside gcp.masterAuthorizedCidrs 203.0.113.0/24: Terraform could create the cluster but not reach its API`,
          fix: "add 198.51.100.23/32 (or your network's range) to gcp.masterAuthorizedCidrs",
        },
      ]);
    } finally {
      await api.close();
    }
  });

  test('GIVEN no network WHEN the address is learned THEN it is a warning; --my-ip makes no request', async () => {
    const offline = await learnPublicAddress({ url: await deadUrl(), timeoutMs: 1000 });
    expect(addressFindings(offline, [{ field: 'aws.endpointPublicAccessCidrs', cidrs: ['0.0.0.0/0'] }])).toEqual([
      expect.objectContaining({ check: 'host address', verdict: 'warn', fix: 'pass --my-ip <your public address>' }),
    ]);
    expect(await learnPublicAddress({ myIp: '192.0.2.9', url: 'http://127.0.0.1:9/' })).toEqual({ address: '192.0.2.9', source: '--my-ip' });
  });
});

describe('report and gate', () => {
  const findings = [
    { check: 'terraform', verdict: 'pass' as const, detail: 'Terraform 1.11.4' },
    { check: 'aws quota vpcs', verdict: 'fail' as const, detail: 'VPCs per Region: 5 in use + 1 = 6 of 5', fix: 'request more' },
  ];

  test('GIVEN a failing finding WHEN rendered THEN each format says it blocks', () => {
    expect(renderFindings(findings, 'table', { title: 't' })).toBe(
      ['t', 'ok    terraform       Terraform 1.11.4', 'FAIL  aws quota vpcs  VPCs per Region: 5 in use + 1 = 6 of 5', '                      fix: request more', '1 finding blocks a deploy', ''].join(
        '\n',
      ),
    );
    expect(renderFindings(findings, 'markdown', { title: 't' })).toContain('| aws quota vpcs | FAIL | VPCs per Region: 5 in use + 1 = 6 of 5 | request more |');
    expect(JSON.parse(renderFindings(findings, 'json', { title: 't' }))).toMatchObject({ schema: 'hoplab.preflight/v1', ok: false, findings });
  });

  test('GIVEN a terminal 48 columns wide WHEN rendered THEN a detail too long to sit beside its check goes under it and fits; a fix, which may hold a command to paste, is never cut', () => {
    const long = [
      ...findings,
      {
        check: 'api endpoints',
        verdict: 'fail' as const,
        detail: 'aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) would open the cluster API endpoint to any address on the internet',
        fix: 'set them to the addresses you and the attendees deploy and run kubectl from',
      },
    ];
    expect(renderFindings(long, 'table', { title: 'hoplab preflight: ann, bob, cy, dee (aws-cluster, aws-lb)' }, 48)).toBe(
      [
        'hoplab preflight: ann, bob, cy, dee',
        '  (aws-cluster, aws-lb)',
        'ok    terraform       Terraform 1.11.4',
        'FAIL  aws quota vpcs',
        '      VPCs per Region: 5 in use + 1 = 6 of 5',
        '      fix: request more',
        'FAIL  api endpoints',
        '      aws.endpointPublicAccessCidrs',
        '      (["0.0.0.0/0"]) would open the cluster API',
        '      endpoint to any address on the internet',
        '      fix: set them to the addresses you and the attendees deploy and run kubectl from',
        '2 findings block a deploy',
        '',
      ].join('\n'),
    );
    expect(
      Math.max(
        ...renderFindings(long, 'table', { title: 't' }, 48)
          .split('\n')
          .filter((l) => !l.trimStart().startsWith('fix: '))
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(48);
  });

  test('GIVEN --skip-preflight WHEN deploy gates THEN it goes on without checking, loudly', async () => {
    const lines: string[] = [];
    const go = await preflightGate({ config: labConfig.parse({}), skip: true, write: (l) => lines.push(l) });
    expect(go).toBe(true);
    expect(lines).toEqual(['hoplab deploy: --skip-preflight: PREFLIGHT SKIPPED. Nothing was checked before spending money; a missing permission or quota fails mid-deploy.']);
  });
});

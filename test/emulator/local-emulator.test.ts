/**
 * The embedded default for real: Terraform 1.x, the AWS provider from the
 * machine's provider mirror, and moto on loopback. Nothing here is mocked, and
 * Terraform runs as a user's does: it starts its own providers, not the test
 * run's pooled ones (provider-pool.ts).
 */
import { execFileSync } from 'node:child_process';
import { validConfig } from '../../lib/config/load';
import { Emulator } from '../../lib/commands/local/moto';
import { LocalLabResult, runLocalLab } from '../../lib/commands/local/local-lab';
import { command, emulatorAnswers, ROOT, ownEmulator } from './harness';
import { withoutProviderPool } from './provider-pool';
import { HOPLAB_HEARTBEAT, Watchdog } from './watchdog';

describe('npm run local against the AWS emulator', () => {
  let external: Emulator | undefined;
  beforeAll(() => {
    // This file's own copy of the environment (jest gives each test file one), which Terraform's children inherit.
    const env = withoutProviderPool(process.env);
    delete process.env.HOPLAB_TEST_PROVIDER_POOL;
    process.env.PATH = env.PATH;
  });
  afterAll(async () => {
    await external?.stop();
  });

  test('GIVEN a running emulator WHEN the lab runs THEN it applies, outputs, re-plans empty, destroys, leaves nothing, and leaves the emulator running', async () => {
    external = await ownEmulator();
    const lines: string[] = [];
    // Watched, not timed (watchdog.ts): it fails when Terraform prints nothing, the steps do not move and the
    // processes this worker started (Terraform, its provider, moto) use no CPU for the stall limit.
    const dog = new Watchdog({ what: 'runLocalLab (npm run local, in this test worker)', pid: () => process.pid, includeRoot: false, notProgress: HOPLAB_HEARTBEAT });
    let result: LocalLabResult;
    try {
      result = await Promise.race([
        runLocalLab({
          config: validConfig({}, 'test'),
          endpoint: external.endpoint,
          abort: dog.signal,
          write: (line) => {
            lines.push(line);
            dog.output(`${line}\n`);
          },
          onTerraformLine: (line) => dog.output(`${line}\n`),
        }),
        dog.failed,
      ]);
    } finally {
      dog.stop();
    }

    expect(result.outputs).toMatchObject({
      cloud: 'aws',
      cluster_name: 'lab-eks',
      region: 'us-east-1',
      node_count: 3,
      max_pods_per_node: 17,
      pod_address_range: ['10.0.0.0/19', '10.0.32.0/19'],
      lb_controller_role_arn: expect.stringMatching(/^arn:aws:iam::\d+:role\/lab-eks-aws-lb-controller$/),
      oidc_provider_arn: expect.stringMatching(/^arn:aws:iam::\d+:oidc-provider\/oidc\.eks\./),
    });
    expect(result.resources).toEqual(expect.arrayContaining(['aws_eks_cluster.eks_cluster_55B0C966', 'aws_eks_node_group.nodes_node-group_12AEBAC4']));
    expect(result.resources.filter((r) => r.startsWith('aws_eks_addon'))).toEqual([]);
    expect(result.addonsLeftOut).toEqual(['vpc-cni', 'kube-proxy', 'coredns']);
    expect(result.replanEmpty).toBe(true);
    expect(result.leftovers).toEqual([]);
    expect(lines).toEqual(
      expect.arrayContaining([
        '[1/8] use the AWS emulator at ' + external.endpoint + ' ...',
        expect.stringMatching(/^ {6}note: left out in emulator mode \(moto has no EKS add-on API\): vpc-cni, kube-proxy, coredns; real deploys keep them$/),
        expect.stringMatching(/^ {6}ok: terraform destroy \(\d+\.\d s\)$/),
        expect.stringMatching(/^ {6}ok: check the emulator for anything left of "lab" \(\d+\.\d s\)$/),
      ]),
    );
    expect(await emulatorAnswers(external.endpoint)).toBe(true);
  });

  test('GIVEN HOPLAB_AWS_ENDPOINT pointing at nothing WHEN the command runs THEN it fails fast with the endpoint in the message', () => {
    const run = () => execFileSync(process.execPath, [command('local')], { cwd: ROOT, env: { ...process.env, HOPLAB_AWS_ENDPOINT: 'http://127.0.0.1:9' }, encoding: 'utf8', stdio: 'pipe' });
    expect(run).toThrow(/hoplab local: FAILED: the emulator at http:\/\/127\.0\.0\.1:9 did not answer within 5 s/);
  });
});

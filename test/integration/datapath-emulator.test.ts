/**
 * One non-default datapath for real against the AWS emulator: IPVS. moto has
 * no EKS add-on API, so the kube-proxy add-on (and its `mode: ipvs`) is left
 * out; what the emulator can show is the node launch template carrying the
 * IPVS user data through apply, an empty re-plan (moto returns the same
 * user data, or Terraform would plan a change) and destroy.
 */
import { validConfig } from '../../lib/config/load';
import { Emulator, startMoto } from '../../lib/local/moto';
import { runLocalLab } from '../../lib/local/local-lab';

// Under load on a shared 2-core machine one apply/re-plan/destroy took 295 s.
jest.setTimeout(600_000);

describe('a non-default datapath against the AWS emulator', () => {
  let emulator: Emulator | undefined;
  afterAll(async () => {
    await emulator?.stop();
  });

  test('GIVEN aws.datapath ipvs WHEN the cluster stack is applied to moto THEN the launch template with the IPVS user data applies, re-plans empty and is destroyed', async () => {
    emulator = await startMoto();
    const result = await runLocalLab({ config: validConfig({ aws: { datapath: 'ipvs' } }, 'test'), endpoint: emulator.endpoint, write: () => undefined });

    expect(result.outputs.dataplane).toBe('kube-proxy-ipvs');
    expect(result.resources).toEqual(expect.arrayContaining([expect.stringMatching(/^aws_launch_template\.nodes_launch-template_\w+$/), expect.stringMatching(/^aws_eks_node_group\./)]));
    expect(result.resources.filter((r) => r.startsWith('aws_eks_addon'))).toEqual([]);
    expect(result.replanEmpty).toBe(true);
    expect(result.leftovers).toEqual([]);
  });
});

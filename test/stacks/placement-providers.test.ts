/**
 * Each environment's stacks in its slot: the AWS provider's region and the
 * role it assumes in the slot's account, the lb stack's `aws eks get-token`
 * with the slot's region and `--role-arn`, subnets in the slot's zones, the
 * google providers' project and region and the node pool's zone, and the
 * `placement` output of all four stacks. A config without placement keeps
 * none of it (the baseline's byte-identical check holds the whole output).
 */
import { Json } from '../support/synth';
import { PlacedSynth, synthesizedPlaced } from '../support/placed-lab';
import { PLACEMENT_OUTPUT_DESCRIPTION } from '../../lib/model/contract';

const CONFIG = {
  attendees: ['ann', 'bob', 'cy'],
  placement: { perSlot: 1 },
  aws: { accounts: [{ id: '111122223333' }, { id: '444455556666', roleName: 'HoplabDeployer' }], regions: ['us-east-2', 'eu-west-1'] },
  gcp: { projects: ['lab-one-1', 'lab-two-2'], regions: ['us-east1', 'europe-west1'], kubernetesCredentials: 'access-token' },
};

/** Each stack's JSON, by name. */
const stacksOf = (lab: PlacedSynth): Record<string, Json> => Object.fromEntries(lab.synth.clouds.flatMap((c) => [c.cluster!, c.lb!]).map((s) => [s.name, s.json]));

describe('the stacks of placed environments', () => {
  let stacks: Record<string, Json>;
  beforeAll(() => {
    stacks = synthesizedPlaced(CONFIG, stacksOf);
  });

  const awsSlots = [
    ['ann', 'us-east-2', 'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole'],
    ['bob', 'eu-west-1', 'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole'],
    ['cy', 'us-east-2', 'arn:aws:iam::444455556666:role/HoplabDeployer'],
  ] as const;

  test.each(awsSlots)("GIVEN %s WHEN synthesized THEN the AWS provider names its slot's region and assumes its account's role", (env, region, roleArn) => {
    const [provider] = stacks[`${env}-aws-cluster`].provider.aws;
    expect(provider.region).toBe(region);
    expect(provider.assume_role).toEqual([{ role_arn: roleArn }]);
    // The state stays where `backend` says (local here), with the host's credentials.
    expect(Object.keys(stacks[`${env}-aws-cluster`].terraform.backend)).toEqual(['local']);
  });

  test.each(awsSlots)("GIVEN %s WHEN synthesized THEN its subnets are in its slot's zones, and its cluster outputs name them", (env, region) => {
    const subnets = Object.values(stacks[`${env}-aws-cluster`].resource.aws_subnet as Record<string, Json>).map((s) => s.availability_zone);
    expect([...new Set(subnets)].sort()).toEqual([`${region}a`, `${region}b`]);
    expect(stacks[`${env}-aws-cluster`].output.region.value).toBe(region);
    expect(stacks[`${env}-aws-cluster`].output.location.value).toBe(`${region}a,${region}b`);
  });

  test.each(awsSlots)("GIVEN %s WHEN synthesized THEN the lb stack's kubernetes and helm providers get their token in the slot's region, as its account's role", (env, region, roleArn) => {
    const lb = stacks[`${env}-aws-lb`];
    // The cluster name is read from the cluster stack (a cross-stack reference).
    const args = ['eks', 'get-token', '--cluster-name', expect.stringContaining(`${env}-aws-cluster`), '--region', region, '--role-arn', roleArn, '--output', 'json'];
    expect(lb.provider.kubernetes[0].exec[0].args).toEqual(args);
    expect(lb.provider.helm[0].kubernetes.exec.args).toEqual(args);
    // The controller is told its region (Pods cannot reach the instance metadata).
    const controller = Object.values(lb.resource.helm_release as Record<string, Json>).find((r) => r.name === 'aws-load-balancer-controller');
    expect(controller.values[0]).toContain(`\nregion: "${region}"\n`);
  });

  test.each([
    ['ann', 'lab-one-1', 'us-east1', 'us-east1-b'],
    ['bob', 'lab-one-1', 'europe-west1', 'europe-west1-b'],
    ['cy', 'lab-two-2', 'us-east1', 'us-east1-b'],
  ])("GIVEN %s WHEN synthesized THEN both google providers name its slot's project and region, and its cluster the region's first zone", (env, project, region, zone) => {
    const cluster = stacks[`${env}-gcp-cluster`];
    expect(cluster.provider.google).toEqual([expect.objectContaining({ project, region })]);
    expect(Object.values(cluster.resource.google_container_cluster as Record<string, Json>)[0].location).toBe(zone);
    expect(Object.values(cluster.resource.google_compute_subnetwork as Record<string, Json>)[0].region).toBe(region);
    expect(Object.values(cluster.resource.google_service_account_iam_member ?? {}).length + Object.values(cluster.resource.google_project_iam_member ?? {}).length).toBeGreaterThan(0);
    expect(JSON.stringify(cluster.resource.google_project_iam_member)).toContain(`"project":"${project}"`);
    expect(stacks[`${env}-gcp-lb`].provider.google).toEqual([expect.objectContaining({ project, region })]);
    expect(cluster.output.location.value).toBe(zone);
  });

  test('GIVEN placed environments WHEN synthesized THEN every stack exports where it is: cloud, slot, account or project, region and zones', () => {
    for (const kind of ['aws-cluster', 'aws-lb']) {
      expect(stacks[`cy-${kind}`].output.placement).toEqual({
        value: {
          cloud: 'aws',
          slot: '444455556666/us-east-2',
          account: '444455556666',
          region: 'us-east-2',
          zones: ['us-east-2a', 'us-east-2b'],
          // The role, so the slot can be rebuilt from state after the account has left aws.accounts.
          role_arn: 'arn:aws:iam::444455556666:role/HoplabDeployer',
        },
        description: PLACEMENT_OUTPUT_DESCRIPTION,
      });
    }
    for (const kind of ['gcp-cluster', 'gcp-lb']) {
      expect(stacks[`bob-${kind}`].output.placement).toEqual({
        value: { cloud: 'gcp', slot: 'lab-one-1/europe-west1', project: 'lab-one-1', region: 'europe-west1', zones: ['europe-west1-b'] },
        description: PLACEMENT_OUTPUT_DESCRIPTION,
      });
    }
  });

  test("GIVEN regions in the host's account WHEN synthesized THEN no role is assumed, the token is the host's, and the slot is host/<region>", () => {
    const host = synthesizedPlaced({ aws: { regions: ['us-west-2'] } }, stacksOf);
    expect(host['lab-aws-cluster'].provider.aws[0]).not.toHaveProperty('assume_role');
    expect(host['lab-aws-cluster'].provider.aws[0].region).toBe('us-west-2');
    expect(host['lab-aws-lb'].provider.kubernetes[0].exec[0].args).toEqual(['eks', 'get-token', '--cluster-name', expect.any(String), '--region', 'us-west-2', '--output', 'json']);
    expect(host['lab-aws-cluster'].output.placement.value).toEqual({ cloud: 'aws', slot: 'host/us-west-2', account: 'host', region: 'us-west-2', zones: ['us-west-2a', 'us-west-2b'] });
  });

  test('GIVEN Cilium in an account of aws.accounts WHEN synthesized THEN its helm provider signs as the account role too', () => {
    const cilium = synthesizedPlaced({ aws: { accounts: [{ id: '111122223333' }], datapath: 'cilium' } }, stacksOf)['lab-aws-cluster'];
    expect(cilium.provider.helm[0].kubernetes.exec.args).toEqual([
      'eks',
      'get-token',
      '--cluster-name',
      expect.any(String),
      '--region',
      'us-east-1',
      '--role-arn',
      'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole',
      '--output',
      'json',
    ]);
  });

  test('GIVEN a config without placement WHEN synthesized THEN no stack has a placement output or an assumed role', () => {
    const plain = synthesizedPlaced({}, stacksOf);
    for (const stack of Object.values(plain)) expect(stack.output).not.toHaveProperty('placement');
    expect(plain['lab-aws-cluster'].provider.aws[0]).not.toHaveProperty('assume_role');
  });
});

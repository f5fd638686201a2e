import { EksNodeGroup as EksNodeGroupResource } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { LaunchTemplate } from '@cdktf/provider-aws/lib/launch-template';
import { Testing } from 'cdktf';
import { EksNodeGroup, EksNodeGroupProps } from '../../../lib/constructs/aws/eks-node-group';

const PROPS: EksNodeGroupProps = { clusterName: 'lab-eks', nodeGroupName: 'lab-eks-nodes', subnetIds: ['subnet-p1', 'subnet-p2'], instanceType: 't3.medium', nodeCount: 3 };

function synth(props: Partial<EksNodeGroupProps> = {}) {
  const json = Testing.synthScope((scope) => {
    new EksNodeGroup(scope, 'nodes', { ...PROPS, ...props });
  });
  return { json, group: Object.values(JSON.parse(json).resource.aws_eks_node_group)[0] as Record<string, unknown> };
}

describe('EksNodeGroup', () => {
  test.each([1, 3, 7])('GIVEN %i nodes WHEN synthesized THEN the group is fixed at that size', (nodeCount) => {
    expect(synth({ nodeCount }).json).toHaveResourceWithProperties(EksNodeGroupResource, {
      scaling_config: { desired_size: nodeCount, min_size: nodeCount, max_size: nodeCount },
    });
  });

  test('GIVEN an instance type WHEN synthesized THEN nodes are on-demand AL2023 of that type in the given subnets', () => {
    expect(synth({ instanceType: 'm5.large' }).json).toHaveResourceWithProperties(EksNodeGroupResource, {
      cluster_name: 'lab-eks',
      node_group_name: 'lab-eks-nodes',
      instance_types: ['m5.large'],
      ami_type: 'AL2023_x86_64_STANDARD',
      capacity_type: 'ON_DEMAND',
      subnet_ids: ['subnet-p1', 'subnet-p2'],
      update_config: { max_unavailable: 1 },
    });
  });

  test.each([['AmazonEKSWorkerNodePolicy'], ['AmazonEC2ContainerRegistryReadOnly']])('GIVEN the node role WHEN synthesized THEN it has %s', (policy) => {
    expect(synth().json).toHaveResourceWithProperties(IamRolePolicyAttachment, { policy_arn: `arn:aws:iam::aws:policy/${policy}` });
  });

  test('GIVEN the node role WHEN synthesized THEN the CNI policy is NOT on it (the vpc-cni add-on has its own IRSA role)', () => {
    expect(synth().json).not.toHaveResourceWithProperties(IamRolePolicyAttachment, { policy_arn: 'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy' });
  });

  test('GIVEN dependencies WHEN synthesized THEN the group waits for its policies and for them', () => {
    const json = Testing.synthScope((scope) => {
      const before = new EksNodeGroup(scope, 'first', { ...PROPS, nodeGroupName: 'first' });
      new EksNodeGroup(scope, 'nodes', { ...PROPS, dependsOn: [before.nodeGroup] });
    });
    const groups = JSON.parse(json).resource.aws_eks_node_group as Record<string, { node_group_name: string; depends_on: string[] }>;
    const group = Object.values(groups).find((g) => g.node_group_name === 'lab-eks-nodes');
    expect(group?.depends_on).toEqual([
      expect.stringMatching(/^aws_iam_role_policy_attachment\.nodes_role-worker/),
      expect.stringMatching(/^aws_iam_role_policy_attachment\.nodes_role-ecr/),
      expect.stringMatching(/^aws_eks_node_group\.first_node-group/),
    ]);
  });

  test.each([
    [false, undefined],
    [true, { ignore_changes: ['remote_access', 'update_config'] }],
  ])('GIVEN emulated=%s WHEN synthesized THEN lifecycle is %j', (emulated, lifecycle) => {
    expect(synth({ emulated }).group.lifecycle).toEqual(lifecycle);
  });
});

describe('EksNodeGroup instance tags', () => {
  const TAGS = { 'hoplab-env': 'lab', 'hoplab-owner': 'jane-doe' };

  test('GIVEN instance tags WHEN synthesized THEN a launch template tags instances, volumes and ENIs, requires IMDSv2 and the group uses its latest version', () => {
    const json = Testing.synthScope((scope) => {
      new EksNodeGroup(scope, 'nodes', { ...PROPS, instanceTags: TAGS });
    });
    expect(json).toHaveResourceWithProperties(LaunchTemplate, {
      name_prefix: 'lab-eks-nodes-',
      metadata_options: { http_endpoint: 'enabled', http_tokens: 'required', http_put_response_hop_limit: 1 },
      tag_specifications: [
        { resource_type: 'instance', tags: TAGS },
        { resource_type: 'volume', tags: TAGS },
        { resource_type: 'network-interface', tags: TAGS },
      ],
    });
    const group = Object.values(JSON.parse(json).resource.aws_eks_node_group)[0] as { launch_template: unknown };
    expect(group.launch_template).toEqual({
      id: expect.stringMatching(/^\$\{aws_launch_template\.[\w-]+\.id\}$/),
      version: expect.stringMatching(/^\$\{aws_launch_template\.[\w-]+\.latest_version\}$/),
    });
  });

  test('GIVEN no instance tags WHEN synthesized THEN there is no launch template and EKS uses its own', () => {
    const { json, group } = synth();
    expect(json).not.toHaveResource(LaunchTemplate);
    expect(group.launch_template).toBeUndefined();
  });
});

test.each([
  [false, undefined],
  [true, { ignore_changes: ['tag_specifications'] }],
])('GIVEN instance tags and emulated=%s WHEN synthesized THEN the launch template lifecycle is %j (moto echoes its own tags back)', (emulated, lifecycle) => {
  const json = Testing.synthScope((scope) => {
    new EksNodeGroup(scope, 'nodes', { ...PROPS, instanceTags: { a: 'b' }, emulated });
  });
  expect((Object.values(JSON.parse(json).resource.aws_launch_template)[0] as { lifecycle?: unknown }).lifecycle).toEqual(lifecycle);
});

describe('EksNodeGroup datapath settings', () => {
  const tags = { 'hoplab-env': 'lab' };

  test('GIVEN user data WHEN synthesized THEN the launch template carries it base64-encoded', () => {
    const { json } = synth({ instanceTags: tags, userData: 'MIME-Version: 1.0\n' });
    expect(json).toHaveResourceWithProperties(LaunchTemplate, { user_data: Buffer.from('MIME-Version: 1.0\n').toString('base64') });
  });

  test('GIVEN no user data WHEN synthesized THEN the launch template has none (EKS adds its own)', () => {
    const template = Object.values(JSON.parse(synth({ instanceTags: tags }).json).resource.aws_launch_template)[0] as Record<string, unknown>;
    expect(template.user_data).toBeUndefined();
  });

  test('GIVEN user data without instance tags WHEN constructed THEN it is refused (there is no launch template to carry it)', () => {
    expect(() => synth({ userData: 'x' })).toThrow('EksNodeGroup nodes: userData goes on the launch template, which only exists with instanceTags; set instanceTags too');
  });

  test('GIVEN a taint WHEN synthesized THEN every node starts with it', () => {
    const { group } = synth({ taints: [{ key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NO_EXECUTE' }] });
    expect(group.taint).toEqual([{ key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NO_EXECUTE' }]);
  });

  test('GIVEN no taints WHEN synthesized THEN nodes have none', () => {
    expect(synth().group.taint).toBeUndefined();
  });
});

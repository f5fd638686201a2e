import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  DescribeAddressesCommand,
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeLaunchTemplatesCommand,
  DescribeNatGatewaysCommand,
  DescribeNetworkInterfacesCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  EC2Client,
  Filter,
} from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient, ResourceNotFoundException } from '@aws-sdk/client-eks';
import { DescribeTagsCommand, ElasticLoadBalancingV2Client, paginateDescribeLoadBalancers, paginateDescribeTargetGroups } from '@aws-sdk/client-elastic-load-balancing-v2';
import { IAMClient, ListOpenIDConnectProviderTagsCommand, ListOpenIDConnectProvidersCommand, ListPoliciesCommand, ListRolesCommand } from '@aws-sdk/client-iam';
import { controlPlaneLogGroupName } from '../../constructs/aws/eks-cluster';
import { ENV_TAG } from '../../model/tags';
import { Leftover } from './leftover';
import { awsClientConfig } from '../../kit/aws/aws-clients';

/** Tag the AWS Load Balancer Controller puts on everything it creates. */
export const LB_CONTROLLER_CLUSTER_TAG = 'elbv2.k8s.aws/cluster';

/** Tag the VPC CNI (aws-node) puts on the ENIs it attaches to nodes (`aws-K8S-*`). */
export const VPC_CNI_CLUSTER_TAG = 'cluster.k8s.amazonaws.com/name';

/** Instance states that still exist (and may cost money). */
const LIVE_INSTANCE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

export interface AwsLeftoverQuery {
  /** Environment name (value of the `hoplab-env` tag). */
  readonly env: string;
  /** EKS cluster name (IAM names start with it; the controller tags with it). */
  readonly clusterName: string;
  /** AWS region. */
  readonly region: string;
  /**
   * Endpoint of a local emulator; dummy credentials are used with it.
   * @default - AWS, with the default credential chain
   */
  readonly endpoint?: string;
  /** The role to assume in the environment's account (its slot's). @default - the host's own account */
  readonly roleArn?: string;
  /**
   * `environment`: everything of the environment (after destroying its cluster stack).
   * `controller`: only what the AWS Load Balancer Controller makes outside Terraform
   * (after destroying only the `-lb` stack, while the cluster stays).
   * @default 'environment'
   */
  readonly scope?: 'environment' | 'controller';
}

/**
 * Lists what is left of an environment in AWS: resources tagged with its
 * `hoplab-env` tag (VPC pieces, NAT gateways not `deleted`, Elastic IPs,
 * launch templates, instances, volumes, network interfaces, IAM), network
 * interfaces the VPC CNI tagged with the cluster (found even once the VPC is
 * gone), IAM roles and policies named after its cluster, the cluster itself,
 * its control-plane log group, and what the AWS Load Balancer Controller made
 * outside Terraform (load balancers, target groups, security groups tagged
 * `elbv2.k8s.aws/cluster`), plus network interfaces left in its VPCs. The
 * controller's Gateway API ALBs carry the same tag (v3.5.0: the Gateway
 * controller uses the shared tracking provider), so they are covered too.
 *
 * Every match is on an exact tag value or an exact name (or a name prefix that
 * ends in `-`), so environment `lab` never reports `lab2`'s resources. It only
 * reads: nothing it reports is deleted.
 */
export async function findAwsLeftovers(query: AwsLeftoverQuery): Promise<Leftover[]> {
  const config = awsClientConfig({ region: query.region, endpoint: query.endpoint, roleArn: query.roleArn });
  const ec2 = new EC2Client(config);
  const eks = new EKSClient(config);
  const iam = new IAMClient(config);
  const elb = new ElasticLoadBalancingV2Client(config);
  const logs = new CloudWatchLogsClient(config);
  try {
    // What the controller made counts in both scopes; the rest of the environment only when its cluster stack is gone.
    const results = await Promise.all([
      ...(query.scope === 'controller' ? [] : [findEc2(ec2, query), findEks(eks, query), findIam(iam, query), findLogGroups(logs, query)]),
      findControllerGroups(ec2, query),
      findElb(elb, query),
    ]);
    // A security group tagged with both the environment and the controller's tag is listed once.
    const seen = new Set<string>();
    return results.flat().filter((leftover) => !seen.has(`${leftover.kind} ${leftover.id}`) && Boolean(seen.add(`${leftover.kind} ${leftover.id}`)));
  } finally {
    for (const client of [ec2, eks, iam, elb, logs]) {
      client.destroy();
    }
  }
}

const tagged = (what: string, value: string) => `tag ${what}=${value}`;

async function findEc2(ec2: EC2Client, query: AwsLeftoverQuery): Promise<Leftover[]> {
  const byEnv: Filter[] = [{ Name: `tag:${ENV_TAG}`, Values: [query.env] }];
  const envMatch = tagged(ENV_TAG, query.env);
  const found: Leftover[] = [];
  const add = (kind: string, ids: (string | undefined)[], matchedBy: string) => {
    for (const id of ids) {
      if (id) found.push({ cloud: 'aws', kind, id, matchedBy });
    }
  };
  const [vpcs, subnets, igws, nats, eips, routeTables, envGroups] = await Promise.all([
    ec2.send(new DescribeVpcsCommand({ Filters: byEnv })),
    ec2.send(new DescribeSubnetsCommand({ Filters: byEnv })),
    ec2.send(new DescribeInternetGatewaysCommand({ Filters: byEnv })),
    ec2.send(new DescribeNatGatewaysCommand({ Filter: byEnv })),
    ec2.send(new DescribeAddressesCommand({ Filters: byEnv })),
    ec2.send(new DescribeRouteTablesCommand({ Filters: byEnv })),
    ec2.send(new DescribeSecurityGroupsCommand({ Filters: byEnv })),
  ]);
  const vpcIds = (vpcs.Vpcs ?? []).map((v) => v.VpcId);
  add('ec2:vpc', vpcIds, envMatch);
  add(
    'ec2:subnet',
    (subnets.Subnets ?? []).map((s) => s.SubnetId),
    envMatch,
  );
  add(
    'ec2:internet-gateway',
    (igws.InternetGateways ?? []).map((g) => g.InternetGatewayId),
    envMatch,
  );
  add(
    'ec2:nat-gateway',
    (nats.NatGateways ?? []).filter((n) => n.State !== 'deleted').map((n) => n.NatGatewayId),
    envMatch,
  );
  add(
    'ec2:elastic-ip',
    (eips.Addresses ?? []).map((a) => a.AllocationId),
    envMatch,
  );
  add(
    'ec2:route-table',
    (routeTables.RouteTables ?? []).map((r) => r.RouteTableId),
    envMatch,
  );
  add(
    'ec2:security-group',
    (envGroups.SecurityGroups ?? []).map((g) => g.GroupId),
    envMatch,
  );
  const [templates, instances, volumes, envEnis, cniEnis] = await Promise.all([
    ec2.send(new DescribeLaunchTemplatesCommand({ Filters: byEnv })),
    ec2.send(new DescribeInstancesCommand({ Filters: [...byEnv, { Name: 'instance-state-name', Values: LIVE_INSTANCE_STATES }] })),
    ec2.send(new DescribeVolumesCommand({ Filters: byEnv })),
    ec2.send(new DescribeNetworkInterfacesCommand({ Filters: byEnv })),
    ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: `tag:${VPC_CNI_CLUSTER_TAG}`, Values: [query.clusterName] }] })),
  ]);
  add(
    'ec2:launch-template',
    (templates.LaunchTemplates ?? []).map((t) => t.LaunchTemplateId),
    envMatch,
  );
  add(
    'ec2:instance',
    (instances.Reservations ?? []).flatMap((r) => (r.Instances ?? []).filter((i) => LIVE_INSTANCE_STATES.includes(i.State?.Name ?? '')).map((i) => i.InstanceId)),
    envMatch,
  );
  add(
    'ec2:volume',
    (volumes.Volumes ?? []).map((v) => v.VolumeId),
    envMatch,
  );
  add(
    'ec2:network-interface',
    (envEnis.NetworkInterfaces ?? []).map((n) => n.NetworkInterfaceId),
    envMatch,
  );
  add(
    'ec2:network-interface',
    (cniEnis.NetworkInterfaces ?? []).map((n) => n.NetworkInterfaceId),
    tagged(VPC_CNI_CLUSTER_TAG, query.clusterName),
  );
  const liveVpcs = vpcIds.filter((id): id is string => id !== undefined);
  if (liveVpcs.length > 0) {
    const enis = await ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'vpc-id', Values: liveVpcs }] }));
    add(
      'ec2:network-interface',
      (enis.NetworkInterfaces ?? []).map((n) => n.NetworkInterfaceId),
      'in a leftover VPC',
    );
  }
  return found;
}

/** The control-plane log group, by its exact name: the API matches by prefix, which alone could also return another environment's. */
async function findLogGroups(logs: CloudWatchLogsClient, query: AwsLeftoverQuery): Promise<Leftover[]> {
  const name = controlPlaneLogGroupName(query.clusterName);
  const page = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  return (page.logGroups ?? []).filter((g) => g.logGroupName === name).map(() => ({ cloud: 'aws' as const, kind: 'logs:log-group', id: name, matchedBy: `name ${name}` }));
}

async function findControllerGroups(ec2: EC2Client, query: AwsLeftoverQuery): Promise<Leftover[]> {
  const groups = await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: `tag:${LB_CONTROLLER_CLUSTER_TAG}`, Values: [query.clusterName] }] }));
  return (groups.SecurityGroups ?? []).flatMap((g) =>
    g.GroupId ? [{ cloud: 'aws' as const, kind: 'ec2:security-group', id: g.GroupId, matchedBy: tagged(LB_CONTROLLER_CLUSTER_TAG, query.clusterName) }] : [],
  );
}

async function findEks(eks: EKSClient, query: AwsLeftoverQuery): Promise<Leftover[]> {
  try {
    const { cluster } = await eks.send(new DescribeClusterCommand({ name: query.clusterName }));
    return cluster ? [{ cloud: 'aws', kind: 'eks:cluster', id: cluster.name ?? query.clusterName, matchedBy: 'cluster name' }] : [];
  } catch (error) {
    if (error instanceof ResourceNotFoundException || (error as { name?: string }).name === 'ResourceNotFoundException') {
      return [];
    }
    throw error;
  }
}

async function findIam(iam: IAMClient, query: AwsLeftoverQuery): Promise<Leftover[]> {
  const prefix = `${query.clusterName}-`;
  const found: Leftover[] = [];
  let marker: string | undefined;
  do {
    const page = await iam.send(new ListRolesCommand({ Marker: marker }));
    for (const role of page.Roles ?? []) {
      if (role.RoleName?.startsWith(prefix)) found.push({ cloud: 'aws', kind: 'iam:role', id: role.RoleName, matchedBy: `name starts with ${prefix}` });
    }
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  do {
    const page = await iam.send(new ListPoliciesCommand({ Scope: 'Local', Marker: marker }));
    for (const policy of page.Policies ?? []) {
      if (policy.PolicyName?.startsWith(prefix)) found.push({ cloud: 'aws', kind: 'iam:policy', id: policy.Arn ?? policy.PolicyName, matchedBy: `name starts with ${prefix}` });
    }
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  const providers = await iam.send(new ListOpenIDConnectProvidersCommand({}));
  for (const provider of providers.OpenIDConnectProviderList ?? []) {
    const tags = await iam.send(new ListOpenIDConnectProviderTagsCommand({ OpenIDConnectProviderArn: provider.Arn }));
    if ((tags.Tags ?? []).some((t) => t.Key === ENV_TAG && t.Value === query.env)) {
      found.push({ cloud: 'aws', kind: 'iam:oidc-provider', id: provider.Arn ?? '?', matchedBy: tagged(ENV_TAG, query.env) });
    }
  }
  return found;
}

async function findElb(elb: ElasticLoadBalancingV2Client, query: AwsLeftoverQuery): Promise<Leftover[]> {
  const candidates: { kind: string; arn: string }[] = [];
  // Both calls return at most 400 a page; a shared account can have more.
  for await (const page of paginateDescribeLoadBalancers({ client: elb }, {})) {
    for (const lb of page.LoadBalancers ?? []) if (lb.LoadBalancerArn) candidates.push({ kind: 'elbv2:load-balancer', arn: lb.LoadBalancerArn });
  }
  for await (const page of paginateDescribeTargetGroups({ client: elb }, {})) {
    for (const tg of page.TargetGroups ?? []) if (tg.TargetGroupArn) candidates.push({ kind: 'elbv2:target-group', arn: tg.TargetGroupArn });
  }
  const found: Leftover[] = [];
  // DescribeTags takes at most 20 ARNs a call.
  for (let i = 0; i < candidates.length; i += 20) {
    const batch = candidates.slice(i, i + 20);
    const tags = await elb.send(new DescribeTagsCommand({ ResourceArns: batch.map((c) => c.arn) }));
    for (const description of tags.TagDescriptions ?? []) {
      const match = (description.Tags ?? []).find((t) => (t.Key === ENV_TAG && t.Value === query.env) || (t.Key === LB_CONTROLLER_CLUSTER_TAG && t.Value === query.clusterName));
      const candidate = batch.find((c) => c.arn === description.ResourceArn);
      if (match && candidate) found.push({ cloud: 'aws', kind: candidate.kind, id: candidate.arn, matchedBy: tagged(match.Key ?? '', match.Value ?? '') });
    }
  }
  return found;
}

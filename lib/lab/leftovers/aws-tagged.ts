/**
 * The reaper's search on AWS, one slot (account x region) at a time: every
 * resource of the kinds a lab costs money with that carries hoplab's
 * `hoplab-expires` tag, whichever workshop, environment or host made it:
 * VPCs, NAT gateways, Elastic IPs, EC2 instances (EKS nodes carry the tags
 * through their launch template), EKS clusters, and load balancers (the
 * controller's carry the lab's tags as its default tags, and the cluster tag
 * `elbv2.k8s.aws/cluster`). It only reads.
 *
 * Through the clients hoplab already has, not the Resource Groups Tagging API:
 * EC2's Describe calls take a `tag-key` filter, EKS's DescribeCluster and
 * ELBv2's DescribeTags return the tags. moto 5.2.1 ignores the filters of
 * DescribeNatGateways (it returns every NAT gateway), so every answer's tags
 * are checked here as well.
 */
import { EC2Client, Filter, paginateDescribeInstances, paginateDescribeNatGateways, paginateDescribeVpcs, DescribeAddressesCommand } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient, paginateListClusters, paginateListNodegroups } from '@aws-sdk/client-eks';
import { DescribeTagsCommand, ElasticLoadBalancingV2Client, paginateDescribeLoadBalancers } from '@aws-sdk/client-elastic-load-balancing-v2';
import { awsTagMap, TAG_KEYS } from '../../model/tags';
import { AwsSlot } from '../../model/slots';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { LB_CONTROLLER_CLUSTER_TAG } from './aws-leftovers';
import { TaggedResource } from './tagged-resource';

/** The tag EKS puts on the instances of a managed node group. */
export const EKS_NODEGROUP_TAG = 'eks:nodegroup-name';

/** NAT gateway states that stand (one `deleting` is on its way out; Terraform waits for `deleted`). */
const LIVE_NAT_STATES = new Set(['pending', 'available']);
/** Instance states that still exist. */
const LIVE_INSTANCE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

export interface AwsTagQuery {
  /** The slot: its region, and its account's role (none: the host's own account). */
  readonly slot: Pick<AwsSlot, 'id' | 'region' | 'account'>;
  /** A local emulator's endpoint. @default - AWS */
  readonly endpoint?: string;
}

/** Every tagged resource of the slot (see the module's comment). */
export async function findAwsTagged(query: AwsTagQuery): Promise<TaggedResource[]> {
  const config = awsClientConfig({ region: query.slot.region, endpoint: query.endpoint, roleArn: query.slot.account?.roleArn });
  const ec2 = new EC2Client(config);
  const eks = new EKSClient(config);
  const elb = new ElasticLoadBalancingV2Client(config);
  const where = { cloud: 'aws' as const, slot: query.slot.id, region: query.slot.region };
  try {
    const found = await Promise.all([findEc2(ec2, where), findClusters(eks, where), findLoadBalancers(elb, where)]);
    return found.flat();
  } finally {
    for (const client of [ec2, eks, elb]) client.destroy();
  }
}

type Where = { readonly cloud: 'aws'; readonly slot: string; readonly region: string };

const expiring = (tags: Readonly<Record<string, string>>) => TAG_KEYS.expires in tags;

async function findEc2(ec2: EC2Client, where: Where): Promise<TaggedResource[]> {
  const tagged: Filter[] = [{ Name: 'tag-key', Values: [TAG_KEYS.expires] }];
  const found: TaggedResource[] = [];
  const [vpcs, nats, addresses, instances] = await Promise.all([
    collect(paginateDescribeVpcs({ client: ec2 }, { Filters: tagged }), (page) => page.Vpcs ?? []),
    collect(paginateDescribeNatGateways({ client: ec2 }, { Filter: tagged }), (page) => page.NatGateways ?? []),
    ec2.send(new DescribeAddressesCommand({ Filters: tagged })).then((answer) => answer.Addresses ?? []),
    collect(paginateDescribeInstances({ client: ec2 }, { Filters: [...tagged, { Name: 'instance-state-name', Values: LIVE_INSTANCE_STATES }] }), (page) =>
      (page.Reservations ?? []).flatMap((r) => r.Instances ?? []),
    ),
  ]);
  for (const vpc of vpcs) {
    const tags = awsTagMap(vpc.Tags);
    if (vpc.VpcId && expiring(tags)) found.push({ ...where, kind: 'ec2:vpc', id: vpc.VpcId, tags });
  }
  for (const nat of nats) {
    const tags = awsTagMap(nat.Tags);
    if (nat.NatGatewayId && LIVE_NAT_STATES.has(nat.State ?? '') && expiring(tags)) found.push({ ...where, kind: 'ec2:nat-gateway', id: nat.NatGatewayId, tags });
  }
  for (const address of addresses) {
    const tags = awsTagMap(address.Tags);
    if (address.AllocationId && expiring(tags)) found.push({ ...where, kind: 'ec2:elastic-ip', id: address.AllocationId, tags });
  }
  for (const instance of instances) {
    const tags = awsTagMap(instance.Tags);
    if (!instance.InstanceId || !LIVE_INSTANCE_STATES.includes(instance.State?.Name ?? '') || !expiring(tags)) continue;
    const nodegroup = tags[EKS_NODEGROUP_TAG];
    found.push({ ...where, kind: 'ec2:instance', id: instance.InstanceId, tags, instanceType: instance.InstanceType ?? 'unknown', ...(nodegroup ? { nodegroup } : {}) });
  }
  return found;
}

async function findClusters(eks: EKSClient, where: Where): Promise<TaggedResource[]> {
  const names = await collect(paginateListClusters({ client: eks }, {}), (page) => page.clusters ?? []);
  const found: TaggedResource[] = [];
  for (const name of names) {
    const { cluster } = await eks.send(new DescribeClusterCommand({ name }));
    const tags = { ...(cluster?.tags ?? {}) };
    if (!expiring(tags)) continue;
    const nodegroups = await collect(paginateListNodegroups({ client: eks }, { clusterName: name }), (page) => page.nodegroups ?? []);
    found.push({ ...where, kind: 'eks:cluster', id: name, tags, nodegroups });
  }
  return found;
}

async function findLoadBalancers(elb: ElasticLoadBalancingV2Client, where: Where): Promise<TaggedResource[]> {
  const balancers = await collect(paginateDescribeLoadBalancers({ client: elb }, {}), (page) => page.LoadBalancers ?? []);
  const found: TaggedResource[] = [];
  // DescribeTags takes at most 20 ARNs a call.
  for (let i = 0; i < balancers.length; i += 20) {
    const batch = balancers.slice(i, i + 20).filter((lb) => lb.LoadBalancerArn);
    if (batch.length === 0) continue;
    const answer = await elb.send(new DescribeTagsCommand({ ResourceArns: batch.map((lb) => lb.LoadBalancerArn!) }));
    for (const description of answer.TagDescriptions ?? []) {
      const tags = awsTagMap(description.Tags);
      const lb = batch.find((b) => b.LoadBalancerArn === description.ResourceArn);
      if (!lb || !(expiring(tags) || LB_CONTROLLER_CLUSTER_TAG in tags)) continue;
      found.push({
        ...where,
        kind: 'elbv2:load-balancer',
        id: lb.LoadBalancerArn!,
        tags,
        name: lb.LoadBalancerName ?? lb.LoadBalancerArn!,
        lbType: lb.Type ?? 'unknown',
        internetFacing: lb.Scheme === 'internet-facing',
        zones: lb.AvailabilityZones?.length ?? 0,
      });
    }
  }
  return found;
}

/** Every item of every page. */
async function collect<P, T>(pages: AsyncIterable<P>, items: (page: P) => readonly T[]): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...items(page));
  return all;
}

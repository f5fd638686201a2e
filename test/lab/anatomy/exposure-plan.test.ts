/**
 * Each exposure's plan (lib/lab/anatomy/exposure-plan.ts): the ranges and
 * ports the synthesized stacks give its way, read from the plan (the default
 * lab, and the hand-written fixture changed where a plan could say more or
 * less).
 */
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { ExposurePlan } from '../../../lib/lab/anatomy/model';
import { exposureOf } from '../../support/pictures';
import { alterStack, fixtureCopy, removeTempDirs } from './support';

afterAll(removeTempDirs);

const AWS_LAB = { node_ranges: ['10.0.0.0/19', '10.0.32.0/19'], pod_ranges: ['10.0.0.0/19', '10.0.32.0/19'], per_node_pod_prefix: null, lb_ranges: ['10.0.224.0/23', '10.0.226.0/23'] };
const GKE_LAB = { node_ranges: ['10.10.0.0/20'], pod_ranges: ['10.20.0.0/16'], per_node_pod_prefix: 24, lb_ranges: ['130.211.0.0/22', '35.191.0.0/16'] };

test.each([
  ['aws', 'native', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: false, ...AWS_LAB }],
  ['aws', 'gateway', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: false, ...AWS_LAB }],
  ['aws', 'nodeport-l4', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: true, ...AWS_LAB }],
  ['aws', 'native-l4', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: true, ...AWS_LAB }],
  ['gcp', 'native', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: false, ...GKE_LAB }],
  ['gcp', 'gateway', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: false, ...GKE_LAB }],
  ['gcp', 'nodeport-local', { listener_port: 80, target_port: 8080, node_port: null, lb_keeps_client: true, ...GKE_LAB }],
] as const)(
  'GIVEN the default lab, %s %s THEN its plan: the nodes, Pods and load balancer ranges of the cluster stack, the listener and Pod ports, the NodePort left to Kubernetes',
  (cloud, mode, expected) => {
    expect(exposureOf(cloud, mode).plan).toEqual({ cloud, dataplane: 'kube-proxy-iptables', ...expected } satisfies ExposurePlan);
  },
);

test('GIVEN a Service that sets its nodePort and a numeric targetPort, and a cluster stack without its subnets THEN the plan takes the ports and knows no ranges', () => {
  const dir = fixtureCopy();
  alterStack(dir, 'lab-aws-lb', (json) => {
    const services = json.resource.kubernetes_service_v1;
    const key = Object.keys(services).find((k) => services[k].metadata.labels['hoplab.dev/exposure'] === 'nodeport-local')!;
    Object.assign(services[key].spec.port[0] ?? services[key].spec.port, { node_port: 31999, target_port: 9090 });
  });
  const plan = explainDir(dir)
    .environments[0].clouds.find((c) => c.cloud === 'aws')!
    .exposures.find((e) => e.mode === 'nodeport-local')!.plan!;
  expect([plan.node_port, plan.target_port, plan.listener_port]).toEqual([31999, 9090, 80]);
  expect([plan.node_ranges, plan.lb_ranges]).toEqual([[], []]);
});

test('GIVEN a named targetPort that no container port carries THEN the Pod port is unknown (null), not guessed', () => {
  const plan = explainDir(fixtureCopy())
    .environments[0].clouds.find((c) => c.cloud === 'gcp')!
    .exposures.find((e) => e.mode === 'native')!.plan!;
  expect(plan.target_port).toBeNull();
  expect(plan.node_ranges).toEqual(['10.10.0.0/20']);
});

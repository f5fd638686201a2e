import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExposureMode } from '../../../lib/model/modes';
import { Cloud } from '../../../lib/model/contract';
import { ciliumWords, EXPOSURE_FACTS, GKE_DATAPLANE_V2 } from '../../../lib/model/exposure-facts';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { CloudExplanation, ExplainModel, ExposureExplanation } from '../../../lib/lab/anatomy/model';
import { alterStack, FIXTURE_APP, fixtureCopy, removeTempDirs } from './support';
import { Json } from '../../support/synth';

afterAll(removeTempDirs);

function cloudOf(model: ExplainModel, cloud: Cloud, env = 'lab'): CloudExplanation {
  const found = model.environments.find((e) => e.env === env)?.clouds.find((c) => c.cloud === cloud);
  if (!found) {
    throw new Error(`no ${env}/${cloud} in the model`);
  }
  return found;
}

function exposureOf(model: ExplainModel, cloud: Cloud, mode: string): ExposureExplanation {
  const found = cloudOf(model, cloud).exposures.find((e) => e.mode === mode);
  if (!found) {
    throw new Error(`no exposure ${mode} on ${cloud}`);
  }
  return found;
}

/** The facts `explain` derives that the `-lb` stacks also state in their outputs. */
function structuralFacts(e: ExposureExplanation) {
  return {
    lb_kind: e.lb_kind,
    target_type: e.target_type,
    expected_hops: e.expected_hops,
    client_ip_preserved: e.client_ip_preserved,
    external_traffic_policy: e.external_traffic_policy,
  };
}

const CASES: [Cloud, ExposureMode][] = [
  ['aws', 'native'],
  ['aws', 'nodeport'],
  ['aws', 'nodeport-local'],
  ['gcp', 'native'],
  ['gcp', 'nodeport'],
  ['gcp', 'nodeport-local'],
];

describe('explainDir on the fixture app (the conventions of the -lb stacks)', () => {
  const model = explainDir(FIXTURE_APP);

  test('GIVEN four stacks of one environment THEN it explains both clouds of "lab" in order', () => {
    expect(model.schema).toBe('hoplab.explain/v1');
    expect(model.environments.map((e) => e.env)).toEqual(['lab']);
    expect(model.environments[0].clouds.map((c) => [c.cloud, c.cluster_synthesized, c.lb_synthesized])).toEqual([
      ['aws', true, true],
      ['gcp', true, true],
    ]);
    expect(cloudOf(model, 'aws').exposures.map((e) => e.mode)).toEqual(['native', 'nodeport', 'nodeport-local']);
  });

  test.each(CASES)('%s %s: the derived facts are the ones EXPOSURE_FACTS states', (cloud, mode) => {
    const { lb_kind, target_type, expected_hops, client_ip_preserved, external_traffic_policy } = EXPOSURE_FACTS[cloud][mode]!;
    expect(structuralFacts(exposureOf(model, cloud, mode))).toEqual({ lb_kind, target_type, expected_hops, client_ip_preserved, external_traffic_policy });
  });

  test.each(CASES)('%s %s: only the NodePort path with ETP Cluster marks a SNAT step', (cloud, mode) => {
    const e = exposureOf(model, cloud, mode);
    expect(e.snat).toBe(mode === 'nodeport');
    expect(e.path.filter((s) => s.snat).length).toBe(mode === 'nodeport' ? 1 : 0);
    expect(e.path[0].at).toBe('client');
    expect(e.path[e.path.length - 1].at).toMatch(/^Pod/);
    // Pod targets: client, LB, Pod. Node targets add the node (with ETP Local it hosts the Pod: still one hop).
    expect(e.path.length).toBe(e.targets === 'pods' ? 3 : 4);
  });

  test('AWS paths name the load balancers and the SNAT hop', () => {
    expect(exposureOf(model, 'aws', 'native').path_summary).toBe('client -> ALB -> Pod');
    expect(exposureOf(model, 'aws', 'nodeport').path_summary).toBe("client -> ALB -> any node's NodePort -> DNAT+SNAT -> Pod (maybe on another node)");
    expect(exposureOf(model, 'aws', 'nodeport-local').path_summary).toBe('client -> NLB -> node with a Pod (NodePort) -> DNAT -> Pod on that node');
    expect(exposureOf(model, 'aws', 'nodeport').path[2]).toEqual({
      at: 'node (NodePort)',
      then: 'kube-proxy-iptables: DNAT to any ready Pod + SNAT to the node address',
      snat: true,
    });
  });

  test('health checks: Pod IPs with readiness gates (namespace label), NodePorts, healthCheckNodePort', () => {
    expect(exposureOf(model, 'aws', 'native').health_check).toBe('each Pod IP on port http (HTTP /), with Pod readiness gates');
    expect(exposureOf(model, 'aws', 'nodeport').health_check).toBe("every node's NodePort (HTTP /): passes on nodes without a Pod too");
    expect(exposureOf(model, 'aws', 'nodeport-local').health_check).toBe(
      "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass; cross-zone load balancing on, so every zone's NLB address reaches them",
    );
    expect(exposureOf(model, 'gcp', 'nodeport-local').health_check).toBe("each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass");
  });

  test('Ingress backends are found through the reference to the Service', () => {
    expect(exposureOf(model, 'aws', 'native')).toMatchObject({
      entry: 'kubernetes_ingress_v1.native-ingress',
      service: 'kubernetes_service_v1.native-service',
      notes: [],
    });
    expect(exposureOf(model, 'aws', 'nodeport-local')).toMatchObject({
      entry: 'kubernetes_service_v1.nodeport-local-service',
      service: 'kubernetes_service_v1.nodeport-local-service',
    });
  });

  test('Pod capacity: VPC CNI per-node limit on AWS, alias range and Pod-range node limit on GKE', () => {
    expect(cloudOf(model, 'aws').capacity).toMatchObject({
      max_pods_per_node: 17,
      max_pods_per_node_reason: 'VPC CNI on t3.medium: 3 ENIs x (6 IPv4 per ENI - 1) + 2',
      node_count: 3,
      machine_type: 't3.medium',
      pod_address_range: ['10.0.0.0/19', '10.0.32.0/19'],
      per_node_range: null,
      // (8192 - 5) / 18 addresses per t3.medium node = 454, twice.
      max_nodes_for_pod_range: 908,
    });
    expect(cloudOf(model, 'gcp').capacity).toMatchObject({
      max_pods_per_node: 110,
      node_count: 3,
      machine_type: 'e2-standard-2',
      pod_address_range: ['10.20.0.0/16'],
      per_node_range: '/24',
      max_nodes_for_pod_range: 256,
    });
    expect(cloudOf(model, 'gcp').dataplane).toBe('kube-proxy-iptables');
  });
});

describe('explainDir follows changes to the synthesized stacks', () => {
  const ingressAnnotations = (json: Json, key: string) => json.resource.kubernetes_ingress_v1[key].metadata.annotations;
  const service = (json: Json, key: string) => json.resource.kubernetes_service_v1[key];

  test('GIVEN the AWS native Ingress flipped to target-type instance over a NodePort Service THEN the NodePort hop and SNAT appear', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-lb', (json) => {
      ingressAnnotations(json, 'native-ingress')['alb.ingress.kubernetes.io/target-type'] = 'instance';
      service(json, 'native-service').spec.type = 'NodePort';
    });
    const e = exposureOf(explainDir(dir), 'aws', 'native');
    // The ALB still names the client in X-Forwarded-For: SNAT on the node, yet the client address is preserved.
    expect(structuralFacts(e)).toEqual({ lb_kind: 'alb', target_type: 'instance', expected_hops: 2, client_ip_preserved: true, external_traffic_policy: 'Cluster' });
    expect([e.source_nat, e.client_ip_via]).toEqual([true, 'x-forwarded-for']);
    expect(e.path_summary).toBe("client -> ALB -> any node's NodePort -> DNAT+SNAT -> Pod (maybe on another node)");
    expect(e.notes).toContain('externalTrafficPolicy not set: Kubernetes defaults it to Cluster');
  });

  test('GIVEN the AWS nodeport-local NLB without cross-zone load balancing THEN explain warns that a zone without a Pod times out', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-lb', (json) => {
      delete service(json, 'nodeport-local-service').metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-attributes'];
    });
    const e = exposureOf(explainDir(dir), 'aws', 'nodeport-local');
    expect(e.notes).toContain('cross-zone off with Local: a zone with no ready Pod has no healthy target (its NLB address times out)');
    expect(e.health_check).toMatch(/; cross-zone load balancing off: each zone's NLB address reaches only its own zone$/);
  });

  test.each([
    [
      'the l4-regional-external load balancer class (GKE 1.33.1+)',
      { class: 'networking.gke.io/l4-regional-external' },
      'instance',
      'client -> Google passthrough NLB (GCE_VM_IP NEGs) -> node with a Pod',
    ],
    ['neither the class nor the l4-rbs annotation', {}, 'target-pool', 'client -> Google passthrough NLB -> node with a Pod'],
  ])('GIVEN the GKE nodeport-local Service with %s THEN explain says which load balancer GKE builds', (_name, change, targetType, summaryStart) => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-lb', (json) => {
      const svc = service(json, 'nodeport-local-service');
      delete svc.metadata.annotations['cloud.google.com/l4-rbs'];
      if ((change as { class?: string }).class) svc.spec.load_balancer_class = (change as { class: string }).class;
    });
    const e = exposureOf(explainDir(dir), 'gcp', 'nodeport-local');
    expect(e.target_type).toBe(targetType);
    expect(e.path_summary.startsWith(summaryStart)).toBe(true);
  });

  test('GIVEN target-type instance over a ClusterIP Service THEN it says the controller cannot register targets', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-lb', (json) => {
      ingressAnnotations(json, 'native-ingress')['alb.ingress.kubernetes.io/target-type'] = 'instance';
    });
    expect(exposureOf(explainDir(dir), 'aws', 'native').notes).toContain(
      'target-type instance needs a NodePort Service, but kubernetes_service_v1.native-service is ClusterIP: the controller will not register targets',
    );
  });

  test('GIVEN the AWS nodeport Service switched to ETP Local THEN one hop, no SNAT, and only nodes with a Pod pass the health check', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-lb', (json) => {
      service(json, 'nodeport-service').spec.external_traffic_policy = 'Local';
    });
    const e = exposureOf(explainDir(dir), 'aws', 'nodeport');
    expect([e.expected_hops, e.snat, e.client_ip_preserved]).toEqual([1, false, true]);
    expect(e.health_check).toBe("every node's NodePort (HTTP /): only nodes with a ready Pod pass");
  });

  test.each(['aws', 'gcp'] as Cloud[])('GIVEN %s nodeport-local switched to ETP Cluster THEN two hops, SNAT, client address lost', (cloud) => {
    const dir = fixtureCopy();
    alterStack(dir, `lab-${cloud}-lb`, (json) => {
      service(json, 'nodeport-local-service').spec.external_traffic_policy = 'Cluster';
    });
    const e = exposureOf(explainDir(dir), cloud, 'nodeport-local');
    expect([e.expected_hops, e.snat, e.client_ip_preserved, e.external_traffic_policy]).toEqual([2, true, false, 'Cluster']);
    expect([e.source_nat, e.client_ip_via]).toEqual([true, 'none']);
    expect(e.client_ip_seen_as).toBe('a node address (SNAT by kube-proxy-iptables) as TCP source; the client address is lost');
  });

  test('GIVEN the NLB switched to ip targets THEN Pods are targets, and the client IP depends on preserve_client_ip', () => {
    const dir = fixtureCopy();
    const annotations = (json: Json) => service(json, 'nodeport-local-service').metadata.annotations;
    alterStack(dir, 'lab-aws-lb', (json) => {
      annotations(json)['service.beta.kubernetes.io/aws-load-balancer-nlb-target-type'] = 'ip';
    });
    const off = exposureOf(explainDir(dir), 'aws', 'nodeport-local');
    expect([off.targets, off.target_type, off.expected_hops, off.client_ip_preserved]).toEqual(['pods', 'ip', 1, false]);
    expect(off.client_ip_seen_as).toBe("the NLB's address as TCP source (the load balancer does not keep the client address)");
    alterStack(dir, 'lab-aws-lb', (json) => {
      annotations(json)['service.beta.kubernetes.io/aws-load-balancer-target-group-attributes'] = 'preserve_client_ip.enabled=true';
    });
    expect(exposureOf(explainDir(dir), 'aws', 'nodeport-local').client_ip_preserved).toBe(true);
  });

  test('GIVEN a LoadBalancer Service without controller annotations THEN it is an in-tree Classic LB', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-lb', (json) => {
      service(json, 'nodeport-local-service').metadata.annotations = {};
    });
    const e = exposureOf(explainDir(dir), 'aws', 'nodeport-local');
    expect([e.lb_kind, e.target_type, e.client_ip_preserved]).toEqual(['clb', 'instance', false]);
  });

  test('GIVEN the GKE nodeport Service annotated for NEGs THEN it becomes container-native', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-lb', (json) => {
      service(json, 'nodeport-service').metadata.annotations['cloud.google.com/neg'] = '{"ingress": true}';
    });
    const e = exposureOf(explainDir(dir), 'gcp', 'nodeport');
    expect(structuralFacts(e)).toEqual(structuralFacts(exposureOf(explainDir(FIXTURE_APP), 'gcp', 'native')));
  });

  test('GIVEN the GKE passthrough NLB WHEN explained THEN packets reach the node at the load balancer IP and port, not a NodePort; the AWS NLB uses the NodePort', () => {
    const gcp = exposureOf(explainDir(FIXTURE_APP), 'gcp', 'nodeport-local');
    expect(gcp.path_summary).toBe('client -> Google passthrough NLB -> node with a Pod (LB IP:port, passthrough) -> DNAT -> Pod on that node');
    expect(gcp.target_type).toBe('instance');
    expect(exposureOf(explainDir(FIXTURE_APP), 'aws', 'nodeport-local').path_summary).toMatch(/-> node with a Pod \(NodePort( \d+)?\) -> DNAT -> Pod on that node$/);
  });

  test('GIVEN the GKE nodeport-local Service without the l4-rbs annotation THEN it is a legacy target pool-based NLB, still one hop to the nodes', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-lb', (json) => {
      delete service(json, 'nodeport-local-service').metadata.annotations['cloud.google.com/l4-rbs'];
    });
    const e = exposureOf(explainDir(dir), 'gcp', 'nodeport-local');
    expect([e.lb_kind, e.target_type, e.expected_hops, e.client_ip_preserved]).toEqual(['gcp-passthrough-nlb', 'target-pool', 1, true]);
  });

  test('GIVEN no NEG annotation THEN the cluster decides: NEGs when VPC-native, unknown without the cluster stack', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-lb', (json) => {
      delete service(json, 'native-service').metadata.annotations;
    });
    expect(exposureOf(explainDir(dir), 'gcp', 'native').target_type).toBe('neg');
    alterStack(dir, 'lab-gcp-cluster', (json) => {
      delete json.resource.google_container_cluster.gke.ip_allocation_policy;
      json.resource.google_container_cluster.gke.networking_mode = 'ROUTES';
    });
    expect(exposureOf(explainDir(dir), 'gcp', 'native').target_type).toBe('instance-group');

    const lbOnly = fixtureCopy(['lab-gcp-lb']);
    alterStack(lbOnly, 'lab-gcp-lb', (json) => {
      delete service(json, 'native-service').metadata.annotations;
    });
    const unknown = exposureOf(explainDir(lbOnly), 'gcp', 'native');
    expect([unknown.target_type, unknown.expected_hops, unknown.client_ip_preserved, unknown.path_summary]).toEqual([null, null, null, 'unknown']);
    expect(unknown.notes.join(' ')).toMatch(/NEGs are the default only on VPC-native clusters/);
  });

  test('GIVEN GKE Dataplane V2 THEN the eBPF dataplane does the DNAT and SNAT', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-cluster', (json) => {
      json.resource.google_container_cluster.gke.datapath_provider = 'ADVANCED_DATAPATH';
    });
    const model = explainDir(dir);
    expect(cloudOf(model, 'gcp').dataplane).toBe('cilium-ebpf');
    expect(cloudOf(model, 'gcp').datapath?.implementation).toBe('GKE Dataplane V2 (Google-managed Cilium, eBPF, no kube-proxy)');
    expect(exposureOf(model, 'gcp', 'nodeport').path[2].then).toBe('cilium-ebpf: DNAT to any ready Pod + SNAT to the node address when that Pod is on another node');
  });

  test.each([
    ['LEGACY_DATAPATH', EXPOSURE_FACTS.gcp['nodeport-l4']!.health_check],
    ['ADVANCED_DATAPATH', ciliumWords.healthCheck(EXPOSURE_FACTS.gcp['nodeport-l4']!.health_check, GKE_DATAPLANE_V2)],
  ])(
    'GIVEN the GKE passthrough Service with externalTrafficPolicy Cluster and datapath_provider %s THEN its health check is worded as the -lb stack’s output words it (kube-proxy named only where there is one)',
    (provider, words) => {
      const dir = fixtureCopy();
      alterStack(dir, 'lab-gcp-cluster', (json) => {
        json.resource.google_container_cluster.gke.datapath_provider = provider;
      });
      alterStack(dir, 'lab-gcp-lb', (json) => {
        service(json, 'nodeport-local-service').spec.external_traffic_policy = 'Cluster';
      });
      const healthCheck = exposureOf(explainDir(dir), 'gcp', 'nodeport-local').health_check;
      expect(healthCheck).toBe(words);
      expect(healthCheck.includes('kube-proxy health port')).toBe(provider === 'LEGACY_DATAPATH');
    },
  );

  test('GIVEN max_pods_per_node 32 and no outputs THEN a /26 per node and 1024 nodes in the /16', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-gcp-cluster', (json) => {
      json.resource.google_container_node_pool.nodes.max_pods_per_node = 32;
      delete json.output;
    });
    expect(cloudOf(explainDir(dir), 'gcp').capacity).toMatchObject({ max_pods_per_node: 32, per_node_range: '/26', max_nodes_for_pod_range: 1024 });
  });

  test('GIVEN the AWS cluster outputs missing THEN the limit comes from the node group instance type', () => {
    const dir = fixtureCopy();
    alterStack(dir, 'lab-aws-cluster', (json) => {
      delete json.output;
      json.resource.aws_eks_node_group['nodes_node-group_12AEBAC4'].instance_types = ['m5.large'];
    });
    expect(cloudOf(explainDir(dir), 'aws').capacity).toMatchObject({
      max_pods_per_node: 29,
      max_pods_per_node_reason: 'VPC CNI on m5.large: 3 ENIs x (10 IPv4 per ENI - 1) + 2',
      node_count: 3,
      pod_address_range: [],
      max_nodes_for_pod_range: null,
    });
  });
});

describe('explainDir with missing pieces reports unknown instead of failing', () => {
  test('GIVEN only <env>-aws-cluster (the emulator environment) THEN cluster facts and a note that -lb was not synthesized', () => {
    const model = explainDir(fixtureCopy(['lab-aws-cluster']));
    const aws = cloudOf(model, 'aws');
    expect(aws).toMatchObject({ cluster_synthesized: true, lb_synthesized: false, exposures: [] });
    expect(aws.capacity?.max_pods_per_node).toBe(17);
    expect(aws.notes).toEqual(['lab-aws-lb was not synthesized: no exposures to explain (its load balancers come with that stack)']);
  });

  test('GIVEN an Ingress whose backend Service is gone and a Service without a policy THEN partial facts and notes', () => {
    const dir = fixtureCopy(['lab-aws-lb']);
    alterStack(dir, 'lab-aws-lb', (json) => {
      delete json.resource.kubernetes_service_v1['nodeport-service'];
      json.resource.kubernetes_ingress_v1['native-ingress'].spec.ingress_class_name = 'nginx';
    });
    const model = explainDir(dir);
    const nodeport = exposureOf(model, 'aws', 'nodeport');
    expect([nodeport.target_type, nodeport.targets, nodeport.external_traffic_policy, nodeport.expected_hops, nodeport.snat]).toEqual(['instance', 'nodes', null, null, null]);
    expect(nodeport.notes).toContain('the backend Service of kubernetes_ingress_v1.nodeport-ingress is not in this stack (or its name is not known offline)');
    const native = exposureOf(model, 'aws', 'native');
    expect([native.lb_kind, native.expected_hops, native.health_check, native.path]).toEqual([null, null, 'unknown', []]);
    expect(native.notes[0]).toBe('Ingress class nginx is not the AWS Load Balancer Controller\'s "alb": which load balancer serves it is not known');
    expect(cloudOf(model, 'aws').capacity).toBeNull();
  });

  test('GIVEN blocks written as one-element lists and odd resources THEN they are read alike', () => {
    const dir = fixtureCopy(['lab-aws-lb']);
    alterStack(dir, 'lab-aws-lb', (json) => {
      const svc = json.resource.kubernetes_service_v1['nodeport-local-service'];
      svc.metadata = [svc.metadata];
      svc.spec = [svc.spec];
      json.resource.kubernetes_service_v1.stray = { metadata: { labels: 'not-a-map' } };
      json.resource.kubernetes_ingress_v1.broken = 'not an object';
    });
    expect(structuralFacts(exposureOf(explainDir(dir), 'aws', 'nodeport-local'))).toEqual({
      lb_kind: 'nlb',
      target_type: 'instance',
      expected_hops: 1,
      client_ip_preserved: true,
      external_traffic_policy: 'Local',
    });
  });

  test('GIVEN a ClusterIP Service labelled as an exposure and no Ingress THEN no load balancer, said so', () => {
    const dir = fixtureCopy(['lab-aws-lb']);
    alterStack(dir, 'lab-aws-lb', (json) => {
      json.resource.kubernetes_service_v1['nodeport-local-service'].spec.type = 'ClusterIP';
    });
    const e = exposureOf(explainDir(dir), 'aws', 'nodeport-local');
    expect(e.lb_kind).toBeNull();
    expect(e.notes).toEqual(['kubernetes_service_v1.nodeport-local-service is a ClusterIP Service and no Ingress routes to it: no load balancer is made for it']);
  });

  test('env and cloud filters', () => {
    expect(explainDir(FIXTURE_APP, { clouds: ['gcp'] }).environments[0].clouds.map((c) => c.cloud)).toEqual(['gcp']);
    expect(explainDir(FIXTURE_APP, { envs: ['lab'] }).environments.map((e) => e.env)).toEqual(['lab']);
    expect(() => explainDir(FIXTURE_APP, { envs: ['team-a'] })).toThrow('no stacks of environment "team-a" in');
    // Every one asked for must be there, as compare refuses an --env its outputs lack.
    expect(() => explainDir(FIXTURE_APP, { envs: ['lab', 'team-a', 'team-b'] })).toThrow(`no stacks of environments "team-a", "team-b" in ${FIXTURE_APP}; found: lab (aws), lab (gcp)`);
  });
});

describe('explainDir input errors', () => {
  const empty = () => mkdtempSync(join(tmpdir(), 'hoplab-explain-empty-'));

  test.each([
    ['a directory that does not exist', () => '/nonexistent/cdktf.out', 'no synthesized app at /nonexistent/cdktf.out: the directory does not exist'],
    ['a directory without stacks/', empty, 'no synthesized stacks in '],
    [
      'a stacks/ directory without cdk.tf.json files',
      () => {
        const dir = empty();
        mkdirSync(join(dir, 'stacks', 'lab-aws-cluster'), { recursive: true });
        return dir;
      },
      '(no */cdk.tf.json)',
    ],
    [
      'stacks that are not hoplab stacks',
      () => {
        const dir = empty();
        mkdirSync(join(dir, 'stacks', 'other'), { recursive: true });
        writeFileSync(join(dir, 'stacks', 'other', 'cdk.tf.json'), '{}');
        return dir;
      },
      'found other, expected names like lab-aws-cluster, lab-aws-lb, lab-gcp-cluster, lab-gcp-lb',
    ],
    [
      'a stack that is not JSON',
      () => {
        const dir = empty();
        mkdirSync(join(dir, 'stacks', 'lab-aws-lb'), { recursive: true });
        writeFileSync(join(dir, 'stacks', 'lab-aws-lb', 'cdk.tf.json'), '{ truncated');
        return dir;
      },
      'cdk.tf.json is not valid JSON',
    ],
  ])('GIVEN %s THEN an error with a fix', (_, makeDir, message) => {
    const dir = makeDir();
    expect(() => explainDir(dir)).toThrow(message);
  });

  test('GIVEN a stack cut short THEN where and why it is not JSON, in the same words on every Node, and to synthesize again', () => {
    const dir = empty();
    const file = join(dir, 'stacks', 'lab-aws-lb', 'cdk.tf.json');
    mkdirSync(join(dir, 'stacks', 'lab-aws-lb'), { recursive: true });
    writeFileSync(file, '{\n  "resource": {\n    "aws_vpc": {\n      "vpc": { truncated');
    expect(() => explainDir(dir)).toThrow(new Error(`${file} is not valid JSON at line 4, column 16: Expected property name or '}' (line 4: "      \\"vpc\\": { truncated"); synthesize again`));
  });
});

import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Testing } from 'cdktf';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validConfig } from '../../lib/config/load';
import { ExposureMode } from '../../lib/model/modes';
import { exposureOutputName } from '../../lib/model/contract';
import { EXPOSURE_FACTS } from '../../lib/model/exposure-facts';
import { labNames } from '../../lib/model/names';
import { GcpClusterStack } from '../../lib/stacks/gcp-cluster-stack';
import { GCP_DEMO_NAMESPACE, GcpLbStack } from '../../lib/stacks/gcp-lb-stack';
import { kubernetesObjects, manifestObjects } from '../support/k8s-objects';
import { Json, named, resourceOf, Synthesized } from '../support/synth';

function stacks(raw: Record<string, unknown> = {}) {
  const config = validConfig(raw, 'test');
  const app = Testing.app();
  const names = labNames(config);
  const cluster = new GcpClusterStack(app, names.gcpClusterStack, { config });
  const lb = new GcpLbStack(app, names.gcpLbStack, { config, cluster });
  return { app, cluster, lb };
}

function synth(raw: Record<string, unknown> = {}): { json: string; parsed: Synthesized; lb: GcpLbStack; cluster: GcpClusterStack } {
  const { lb, cluster } = stacks(raw);
  const json = Testing.synth(lb);
  return { json, parsed: JSON.parse(json) as Synthesized, lb, cluster };
}

describe('GcpLbStack', () => {
  test('GIVEN the default config WHEN synthesized THEN it matches the snapshot (update only for intended changes)', () => {
    expect(synth().json).toMatchSnapshot();
  });

  test('GIVEN the default config WHEN synthesized THEN the demo app runs the configured image and replicas in its namespace', () => {
    const { parsed } = synth({ app: { replicas: 3 } });
    const { name: nsId, config: ns } = resourceOf(parsed, 'kubernetes_namespace_v1', 'app_namespace');
    const { config: deployment } = resourceOf(parsed, 'kubernetes_deployment_v1');
    expect((ns.metadata as { name: string }).name).toBe(GCP_DEMO_NAMESPACE);
    expect(deployment.metadata).toMatchObject({ name: 'echo', namespace: `\${kubernetes_namespace_v1.${nsId}.metadata[0].name}` });
    expect((deployment.spec as { replicas: string }).replicas).toBe('3');
    expect(JSON.stringify(deployment)).toContain('"image":"registry.k8s.io/echoserver:1.10"');
  });

  test('GIVEN the full app WHEN synthesized THEN the stack depends on the cluster stack, whose endpoint and CA configure the kubernetes provider', () => {
    const { app, lb, cluster } = stacks();
    app.synth();
    expect(lb.dependencies).toHaveLength(1);
    expect(lb.dependencies[0]).toBe(cluster);
    expect(cluster.dependencies).toHaveLength(0);
    const lbJson = JSON.parse(readFileSync(join(app.outdir, 'stacks', 'lab-gcp-lb', 'cdk.tf.json'), 'utf8')) as Synthesized;
    const clusterJson = JSON.parse(readFileSync(join(app.outdir, 'stacks', 'lab-gcp-cluster', 'cdk.tf.json'), 'utf8')) as Synthesized;
    const remote = 'data.terraform_remote_state.cross-stack-reference-input-lab-gcp-cluster.outputs';
    const [provider] = lbJson.provider?.kubernetes ?? [];
    expect(provider.host).toMatch(new RegExp(`^https://\\$\\{${remote.replace(/\./g, '\\.')}\\.cross-stack-output-google_container_cluster\\w+endpoint\\}$`));
    expect(provider.cluster_ca_certificate).toMatch(
      new RegExp(`^\\$\\{base64decode\\(${remote.replace(/\./g, '\\.')}\\.cross-stack-output-google_container_cluster\\w+master_auth0cluster_ca_certificate\\)\\}$`),
    );
    const crossOutputs = Object.entries(clusterJson.output ?? {}).filter(([name]) => name.startsWith('cross-stack-output-'));
    expect(crossOutputs.map(([, o]) => [o.value, o.sensitive])).toEqual([
      [expect.stringMatching(/^\$\{google_container_cluster\.gke_cluster_\w+\.endpoint\}$/), true],
      [expect.stringMatching(/^\$\{google_container_cluster\.gke_cluster_\w+\.master_auth\[0\]\.cluster_ca_certificate\}$/), true],
      // The Pod Security version of namespace hoplab is the control plane's minor.
      [expect.stringMatching(/^\$\{google_container_cluster\.gke_cluster_\w+\.master_version\}$/), true],
    ]);
  });

  test("GIVEN app.allowedSourceCidrs narrowed and the full app WHEN synthesized THEN the Ingresses' and Gateway's policy name is a cross-stack reference to the cluster stack's policy", () => {
    const { app } = stacks({ app: { allowedSourceCidrs: ['203.0.113.0/24'] } });
    app.synth();
    const lbJson = JSON.parse(readFileSync(join(app.outdir, 'stacks', 'lab-gcp-lb', 'cdk.tf.json'), 'utf8')) as Synthesized;
    const clusterJson = JSON.parse(readFileSync(join(app.outdir, 'stacks', 'lab-gcp-cluster', 'cdk.tf.json'), 'utf8')) as Synthesized;
    const remote = 'data.terraform_remote_state.cross-stack-reference-input-lab-gcp-cluster.outputs';
    const manifests = Object.values(lbJson.resource.kubernetes_manifest) as { manifest: Json }[];
    const names = manifests.map((m) => m.manifest.spec?.securityPolicy?.name ?? m.manifest.spec?.default?.securityPolicy).filter((name) => name !== undefined);
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(new RegExp(`^\\$\\{${remote.replace(/\./g, '\\.')}\\.cross-stack-output-google_compute_security_policy[\\w-]+name\\}$`));
    expect(Object.values(clusterJson.output ?? {}).map((o) => o.value)).toContainEqual(expect.stringMatching(/^\$\{google_compute_security_policy\.source-policy_\w+\.name\}$/));
  });

  test('GIVEN the default credentials WHEN synthesized THEN kubernetes uses the exec plugin and no google provider or token is in the stack', () => {
    const { json, parsed } = synth();
    expect(json).toHaveProviderWithProperties(KubernetesProvider, {
      exec: [{ api_version: 'client.authentication.k8s.io/v1beta1', command: 'gke-gcloud-auth-plugin', args: ['--use_application_default_credentials'] }],
    });
    expect(Object.keys(parsed.provider ?? {})).toEqual(['kubernetes']);
    // The only data source reads the Gateway's address back; nothing holds a token.
    expect(Object.keys(parsed.data ?? {})).toEqual(['kubernetes_resource']);
  });

  test('GIVEN access-token credentials WHEN synthesized THEN the google provider and data google_client_config supply the token', () => {
    const { parsed } = synth({ gcp: { kubernetesCredentials: 'access-token' } });
    const [clientId] = Object.keys(parsed.data?.google_client_config ?? {});
    expect(parsed.provider?.kubernetes[0].token).toBe(`\${data.google_client_config.${clientId}.access_token}`);
    expect(parsed.provider?.google[0]).toMatchObject({ project: 'hoplab-demo', region: 'us-central1' });
  });

  test('GIVEN every mode WHEN synthesized THEN each exposure output holds mode, cloud, URL from the status and the GCP facts', () => {
    const { parsed } = synth();
    const ingressUrl = (name: string) => `http://\${kubernetes_ingress_v1.${named(parsed, 'kubernetes_ingress_v1', name).name}.status[0].load_balancer[0].ingress[0].ip}/`;
    const serviceUrl = (name: string) => `http://\${kubernetes_service_v1.${named(parsed, 'kubernetes_service_v1', name).name}.status[0].load_balancer[0].ingress[0].ip}/`;
    const urls: Partial<Record<ExposureMode, string>> = {
      native: ingressUrl('echo-native'),
      nodeport: ingressUrl('echo-nodeport'),
      'nodeport-l4': serviceUrl('echo-nodeport-l4'),
      'nodeport-local': serviceUrl('echo-nodeport-local'),
    };
    const [gatewayData] = Object.keys(parsed.data?.kubernetes_resource ?? {});
    urls.gateway = `http://\${data.kubernetes_resource.${gatewayData}.object.status.addresses[0].value}/`;
    expect(Object.keys(parsed.output ?? {})).toEqual(['exposure_gateway', 'exposure_native', 'exposure_nodeport', 'exposure_nodeport_l4', 'exposure_nodeport_local']);
    for (const mode of ['native', 'gateway', 'nodeport', 'nodeport-l4', 'nodeport-local'] as const) {
      const backends = {
        native: 'the Pod IPs, as endpoints of zonal GCE_VM_IP_PORT NEGs',
        gateway: 'the Pod IPs, as endpoints of zonal GCE_VM_IP_PORT NEGs',
        nodeport: "every node's NodePort, through zonal instance groups",
        'nodeport-l4': 'the nodes, as GCE_VM_IP NEGs from GKE 1.32.2-gke.1652000, as instance groups before',
        'nodeport-local': 'the nodes, as GCE_VM_IP NEGs from GKE 1.32.2-gke.1652000, as instance groups before',
      }[mode];
      expect(parsed.output?.[exposureOutputName(mode)].value).toEqual({ mode, cloud: 'gcp', url: urls[mode], ...EXPOSURE_FACTS.gcp[mode], backends });
    }
  });

  test('GIVEN native-l4 in the config WHEN synthesized THEN GKE makes and exports nothing for it (passthrough LBs target nodes only)', () => {
    const { parsed } = synth({ exposures: ['native-l4', 'nodeport-local'] });
    expect(Object.keys(parsed.output ?? {})).toEqual(['exposure_nodeport_local']);
    expect(JSON.stringify(parsed)).not.toContain('native-l4');
  });

  test('GIVEN every mode WHEN synthesized THEN nodeport-l4 is the l4-rbs passthrough Service of nodeport-local with externalTrafficPolicy Cluster', () => {
    const { parsed } = synth();
    const spec = (name: string) => {
      const { name: id } = named(parsed, 'kubernetes_service_v1', name);
      return parsed.resource.kubernetes_service_v1[id] as { metadata: { annotations: Record<string, string> }; spec: Record<string, unknown> };
    };
    const l4 = spec('echo-nodeport-l4');
    const local = spec('echo-nodeport-local');
    expect(l4.spec.external_traffic_policy).toBe('Cluster');
    expect(local.spec.external_traffic_policy).toBe('Local');
    expect(l4.metadata.annotations).toEqual(local.metadata.annotations);
    expect({ ...l4.spec, external_traffic_policy: 'Local' }).toEqual(local.spec);
  });

  test.each([
    ['legacy', 'a node address (SNAT by kube-proxy) as TCP peer; only the L7 X-Forwarded-For header still names the client (the Google Front End adds it)'],
    [
      'dataplane-v2',
      'a node address (SNAT by GKE Dataplane V2 (Cilium eBPF), when the Pod is on another node) as TCP peer; only the L7 X-Forwarded-For header still names the client (the Google Front End adds it)',
    ],
  ])('GIVEN gcp.datapath %p WHEN synthesized THEN the nodeport output names the dataplane that SNATs, and under Dataplane V2 (Cilium) only for Pods on another node', (datapath, seenAs) => {
    const { parsed } = synth({ gcp: { datapath } });
    expect((parsed.output?.[exposureOutputName('nodeport')].value as { client_ip_seen_as: string }).client_ip_seen_as).toBe(seenAs);
  });

  test.each([
    ['legacy', 'kube-proxy health port 10256 (HTTP /healthz) on every node: passes on nodes without a Pod too'],
    ['dataplane-v2', "health port 10256 (HTTP /healthz), answered by GKE Dataplane V2 (Cilium eBPF) in kube-proxy's place, on every node: passes on nodes without a Pod too"],
  ])('GIVEN gcp.datapath %p WHEN synthesized THEN the nodeport-l4 health check names kube-proxy only where there is one', (datapath, healthCheck) => {
    const { parsed } = synth({ gcp: { datapath }, exposures: ['nodeport-l4'] });
    const output = parsed.output?.[exposureOutputName('nodeport-l4')].value as { health_check: string; client_ip_seen_as: string };
    expect(output.health_check).toBe(healthCheck);
    expect(output.client_ip_seen_as).toBe(
      datapath === 'legacy'
        ? 'a node address (SNAT by kube-proxy) as TCP source, and no header: the client address is lost'
        : 'a node address (SNAT by GKE Dataplane V2 (Cilium eBPF), when the Pod is on another node) as TCP source, and no header: the client address is lost then, and kept when the Pod is on the receiving node',
    );
  });

  test.each([
    [['native'], ['echo-native'], ['echo-native']],
    [['nodeport'], ['echo-nodeport'], ['echo-nodeport']],
    [['nodeport-local'], ['echo-nodeport-local'], []],
    [['nodeport-local', 'native'], ['echo-native', 'echo-nodeport-local'], ['echo-native']],
  ])('GIVEN exposures %j WHEN synthesized THEN only Services %j and Ingresses %j exist', (exposures, services, ingresses) => {
    const { parsed } = synth({ exposures });
    const names = (type: string) =>
      Object.values(parsed.resource[type] ?? {})
        .map((r) => (r.metadata as { name: string }).name)
        .sort();
    expect(names('kubernetes_service_v1')).toEqual(services);
    expect(names('kubernetes_ingress_v1')).toEqual(ingresses);
    expect(Object.keys(parsed.output ?? {}).sort()).toEqual(exposures.map((m) => exposureOutputName(m as ExposureMode)).sort());
  });

  test('GIVEN every mode WHEN synthesized THEN each Service and Ingress carries hoplab.dev/exposure with its mode', () => {
    const { parsed } = synth();
    const labelled = [...Object.values(parsed.resource.kubernetes_service_v1), ...Object.values(parsed.resource.kubernetes_ingress_v1)].map((r) => {
      const metadata = r.metadata as { name: string; labels: Record<string, string> };
      return [metadata.name, metadata.labels['hoplab.dev/exposure']];
    });
    expect(labelled.sort()).toEqual([
      ['echo-gateway', 'gateway'],
      ['echo-native', 'native'],
      ['echo-native', 'native'],
      ['echo-nodeport', 'nodeport'],
      ['echo-nodeport', 'nodeport'],
      ['echo-nodeport-l4', 'nodeport-l4'],
      ['echo-nodeport-local', 'nodeport-local'],
    ]);
  });

  test('GIVEN every mode WHEN synthesized THEN Pods are created after every Service and Ingress (NEG readiness gates) and the namespace goes last', () => {
    const { parsed } = synth();
    const { config: deployment } = resourceOf(parsed, 'kubernetes_deployment_v1');
    const { name: nsId } = resourceOf(parsed, 'kubernetes_namespace_v1', 'app_namespace');
    const exposureAddresses: string[] = [];
    for (const type of ['kubernetes_service_v1', 'kubernetes_ingress_v1']) {
      for (const [id, resource] of Object.entries(parsed.resource[type])) {
        exposureAddresses.push(`${type}.${id}`);
        expect(resource.depends_on).toBeUndefined();
        expect((resource.metadata as { namespace: string }).namespace).toBe(`\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`);
      }
    }
    for (const [id, resource] of Object.entries(parsed.resource.kubernetes_manifest)) {
      exposureAddresses.push(`kubernetes_manifest.${id}`);
      expect((resource.manifest as { metadata: { namespace: string } }).metadata.namespace).toBe(`\${kubernetes_namespace_v1.${nsId}.metadata[0].name}`);
    }
    expect([...(deployment.depends_on as string[])].sort()).toEqual(exposureAddresses.sort());
    for (const mode of ['native', 'nodeport']) {
      const { name: serviceId } = named(parsed, 'kubernetes_service_v1', `echo-${mode}`);
      const { config: ingress } = named(parsed, 'kubernetes_ingress_v1', `echo-${mode}`);
      expect(JSON.stringify(ingress.spec)).toContain(`kubernetes_service_v1.${serviceId}.metadata[0].name`);
    }
  });

  test('GIVEN every mode WHEN the Kubernetes objects are checked THEN each is valid against the Kubernetes API schema', () => {
    const objects = kubernetesObjects(synth().parsed);
    expect(objects).toHaveLength(11);
    for (const object of objects) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test('GIVEN every mode WHEN the Gateway API objects are checked THEN each is valid against its Gateway API v1.6.0 CRD', () => {
    const objects = manifestObjects(synth().parsed);
    expect(objects.map((o) => o.object.kind)).toEqual(['Gateway', 'HTTPRoute']);
    for (const object of objects) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test('GIVEN app.allowedSourceCidrs narrowed WHEN synthesized THEN both L4 Services admit only them; the Ingresses and the Gateway name the Cloud Armor policy instead', () => {
    const blocks = ['203.0.113.0/24', '198.51.100.7/32'];
    const { parsed } = synth({ app: { allowedSourceCidrs: blocks } });
    const services = Object.entries(parsed.resource.kubernetes_service_v1 as Record<string, Json>).map(([id, s]) => [id.replace(/_[A-F0-9]+$/, ''), s.spec.load_balancer_source_ranges]);
    expect(Object.fromEntries(services)).toEqual({
      native_service: undefined,
      gateway_service: undefined,
      nodeport_service: undefined,
      'nodeport-l4_service': blocks,
      'nodeport-local_service': blocks,
    });
    expect(JSON.stringify([parsed.resource.kubernetes_ingress_v1, parsed.resource.kubernetes_manifest])).not.toContain('203.0.113.0/24');
    const manifests = Object.values(parsed.resource.kubernetes_manifest) as { manifest: Json }[];
    const policyNames = [
      ...manifests.filter((m) => m.manifest.kind === 'BackendConfig').map((m) => [m.manifest.metadata.name, m.manifest.spec.securityPolicy.name]),
      ...manifests.filter((m) => m.manifest.kind === 'GCPBackendPolicy').map((m) => [m.manifest.metadata.name, m.manifest.spec.default.securityPolicy]),
    ];
    expect(policyNames.map(([name]) => name).sort()).toEqual(['echo-gateway', 'echo-native', 'echo-nodeport']);
    expect(new Set(policyNames.map(([, policy]) => policy)).size).toBe(1);
    for (const object of kubernetesObjects(parsed)) {
      expect(() => object.validate()).not.toThrow();
    }
  });

  test('GIVEN the gateway mode WHEN synthesized THEN a GKE global external Gateway routes to a ClusterIP Service and waits for its address', () => {
    const { parsed } = synth({ exposures: ['gateway'] });
    const manifests = Object.values(parsed.resource.kubernetes_manifest) as { manifest: Json; wait?: Json; depends_on?: string[] }[];
    const gateway = manifests.find((m) => m.manifest.kind === 'Gateway')!;
    const route = manifests.find((m) => m.manifest.kind === 'HTTPRoute')!;
    expect(gateway.manifest.spec).toEqual({
      gatewayClassName: 'gke-l7-global-external-managed',
      listeners: [{ name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: { namespaces: { from: 'Same' } } }],
    });
    expect(gateway.wait).toEqual({ fields: { 'status.addresses[0].value': '^[0-9.]+$' } });
    expect(route.manifest.spec.parentRefs).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'echo-gateway', sectionName: 'http' }]);
    expect(route.manifest.spec.rules[0].backendRefs).toEqual([{ name: 'echo-gateway', port: 80 }]);
    const { config: service } = named(parsed, 'kubernetes_service_v1', 'echo-gateway');
    expect((service.spec as { type: string }).type).toBe('ClusterIP');
    expect(Object.keys(parsed.resource).sort()).toEqual(['kubernetes_daemon_set_v1', 'kubernetes_deployment_v1', 'kubernetes_manifest', 'kubernetes_namespace_v1', 'kubernetes_service_v1']);
  });

  test.each([
    ['1.31', 'instance groups', 'instance groups of the nodes'],
    ['1.33', 'GCE_VM_IP NEGs', 'GCE_VM_IP NEGs of the nodes'],
    ['1.34', 'GCE_VM_IP NEGs', 'GCE_VM_IP NEGs of the nodes'],
  ])('GIVEN gcp.kubernetesVersion %p WHEN synthesized THEN the passthrough exposures export the backends GKE builds for that version (%s)', (kubernetesVersion, _what, backends) => {
    const { parsed } = synth({ gcp: { kubernetesVersion } });
    for (const mode of ['nodeport-l4', 'nodeport-local'] as const) {
      expect((parsed.output?.[exposureOutputName(mode)].value as { backends: string }).backends).toBe(backends);
    }
  });
});

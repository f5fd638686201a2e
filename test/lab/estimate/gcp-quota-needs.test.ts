/**
 * The GCP quota needs preflight checks, counted from the synthesized stacks:
 * each load balancer against the metric it really uses (the Gateway against
 * the global external managed quotas, passthrough NLBs against the regional
 * ones, GKE Ingress against the classic ones), the nodes' CPUs and disks with
 * the default pool, one network per environment, and no address per node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig } from '../../../lib/config/schema';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { exposuresOfModel, gcpQuotaNeeds } from '../../../lib/lab/estimate/quotas';

/** The synthesized stacks of a lab, and the exposures explain derives from them. */
function synthesized(input: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-gcp-needs-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, labConfig.parse(input));
    app.synth();
    return { synth: readSynthDir(dir), exposures: exposuresOfModel(explainDir(dir)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function needs(input: unknown) {
  const { synth, exposures } = synthesized(input);
  return gcpQuotaNeeds(synth, exposures);
}

const byMetric = (input: unknown) => Object.fromEntries(needs(input).quotas.map((q) => [q.metric, q.need]));

describe('GCP quota needs', () => {
  test('GIVEN the default lab WHEN counted THEN every metric, its scope, its count and what was counted', () => {
    expect(needs({})).toEqual({
      quotas: [
        { metric: 'CPUS', scope: 'region', need: 8, counted: "4 node VMs, the default pools' included" },
        { metric: 'CPUS_ALL_REGIONS', scope: 'project', need: 8, counted: "4 node VMs, the default pools' included" },
        { metric: 'SSD_TOTAL_GB', scope: 'region', need: 250, counted: "boot disks of 4 node VMs, the default pools' included" },
        { metric: 'DISKS_TOTAL_GB', scope: 'region', need: 0, counted: "pd-standard boot disks of 4 node VMs, the default pools' included" },
        { metric: 'NETWORKS', scope: 'project', need: 1, counted: 'one VPC network per environment' },
        { metric: 'SUBNETWORKS', scope: 'project', need: 1, counted: 'one node subnet per environment' },
        { metric: 'ROUTERS', scope: 'project', need: 1, counted: 'one Cloud Router (for Cloud NAT) per environment' },
        // The lab's 2 (L7 proxies, L4 health checks); GKE's -master, -vms, -all; Ingress 1, Gateway 1, each L4 Service 1, the Cluster Services' shared health-check rule 1, the Local Service's 1.
        { metric: 'FIREWALLS', scope: 'project', need: 11, counted: '2 of the lab, 3 GKE makes per cluster, 6 the load balancer controllers make' },
        // Ingress 1 each, the Gateway 1, and the passthrough NLBs' regional ones, which count here too: the Local Service's own, the Cluster Services' shared one.
        {
          metric: 'HEALTH_CHECKS',
          scope: 'project',
          need: 5,
          counted: '2 GKE Ingress, 1 Gateway backend, 2 passthrough NLB (regional: one per Local Service, one per cluster for its Cluster Services)',
        },
        { metric: 'TARGET_HTTP_PROXIES', scope: 'project', need: 3, counted: '2 GKE Ingress, 1 Gateway' },
        { metric: 'URL_MAPS', scope: 'project', need: 3, counted: '2 GKE Ingress, 1 Gateway' },
        // One zone: the native Ingress, the Gateway and the two passthrough NLBs one each (the nodeport Ingress uses instance groups).
        { metric: 'NETWORK_ENDPOINT_GROUPS', scope: 'region', need: 4, counted: 'one per zone for each NEG-backed Ingress, Gateway and passthrough NLB (GCE_VM_IP NEGs from GKE 1.32.2)' },
        { metric: 'SECURITY_POLICIES', scope: 'project', need: 0, counted: 'the Cloud Armor policy of a narrowed app.allowedSourceCidrs' },
        { metric: 'SECURITY_POLICY_RULES', scope: 'project', need: 0, counted: "the Cloud Armor policy's rules, its default rule included" },
        { metric: 'IN_USE_ADDRESSES', scope: 'region', need: 3, counted: '1 Cloud NAT, 2 passthrough NLB; the nodes are private' },
        { metric: 'FORWARDING_RULES', scope: 'project', need: 2, counted: '2 GKE Ingress (classic Application Load Balancer)' },
        // One backend service per Ingress: its defaultBackend is the app's Service, so GKE makes no default backend (it used to be counted here).
        { metric: 'GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES', scope: 'project', need: 2, counted: "2 GKE Ingress (its defaultBackend is the app's Service: no default backend of GKE's own)" },
        { metric: 'GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', scope: 'project', need: 1, counted: '1 Gateway' },
        { metric: 'GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', scope: 'project', need: 2, counted: "1 Gateway: its route's backend and the default 404 backend" },
        { metric: 'EXTERNAL_NETWORK_LB_FORWARDING_RULES', scope: 'region', need: 2, counted: '2 passthrough NLB' },
        { metric: 'REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', scope: 'region', need: 2, counted: '2 passthrough NLB' },
      ],
      notes: [],
    });
  });

  test.each([
    [
      'only the Gateway',
      { exposures: ['gateway'] },
      { FORWARDING_RULES: 0, GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES: 0, GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES: 1, GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES: 2 },
    ],
    [
      'only the passthrough NLBs',
      { exposures: ['nodeport-l4', 'nodeport-local'] },
      {
        FORWARDING_RULES: 0,
        GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES: 0,
        EXTERNAL_NETWORK_LB_FORWARDING_RULES: 2,
        REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES: 2,
        IN_USE_ADDRESSES: 3,
        HEALTH_CHECKS: 2,
        TARGET_HTTP_PROXIES: 0,
        URL_MAPS: 0,
      },
    ],
    [
      'only the Ingresses',
      { exposures: ['native', 'nodeport'] },
      { FORWARDING_RULES: 2, GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES: 2, EXTERNAL_NETWORK_LB_FORWARDING_RULES: 0, IN_USE_ADDRESSES: 1, NETWORK_ENDPOINT_GROUPS: 1, FIREWALLS: 6 },
    ],
  ])('GIVEN %s WHEN counted THEN each load balancer counts against its own metrics', (_name, input, expected) => {
    expect(byMetric(input)).toMatchObject(expected);
  });

  test('GIVEN a narrowed client list WHEN counted THEN the Cloud Armor policy and its rules count', () => {
    expect(byMetric({ exposures: ['native', 'gateway'], app: { allowedSourceCidrs: ['203.0.113.0/24'] } })).toMatchObject({ SECURITY_POLICIES: 1, SECURITY_POLICY_RULES: 2 });
  });

  test('GIVEN two zones WHEN counted THEN each NEG-backed load balancer takes a NEG in each zone', () => {
    expect(byMetric({ gcp: { zones: ['us-central1-a', 'us-central1-b'] } }).NETWORK_ENDPOINT_GROUPS).toBe(8);
  });

  test('GIVEN one passthrough NLB, Local or Cluster WHEN counted THEN it takes its traffic rule and one health-check rule (its own, or the shared one of the cluster)', () => {
    // 2 of the lab + 3 of GKE + the Service's traffic rule + a health-check rule (a Local Service's own; the Cluster Services' shared one).
    expect(byMetric({ exposures: ['nodeport-local'] }).FIREWALLS).toBe(2 + 3 + 2);
    expect(byMetric({ exposures: ['nodeport-l4'] }).FIREWALLS).toBe(2 + 3 + 2);
  });

  test('GIVEN one passthrough NLB, Local or Cluster WHEN counted THEN it takes one regional health check in HEALTH_CHECKS (its own, or the shared one of the cluster)', () => {
    expect(byMetric({ exposures: ['nodeport-local'] }).HEALTH_CHECKS).toBe(1);
    expect(byMetric({ exposures: ['nodeport-l4'] }).HEALTH_CHECKS).toBe(1);
  });

  test('GIVEN three Cluster Services and two Local ones in one cluster WHEN counted THEN the Cluster Services share one health check, each Local Service has its own', () => {
    const { synth, exposures } = synthesized({ exposures: ['nodeport-l4', 'nodeport-local'] });
    const cluster = exposures.find((x) => x.cloud === 'gcp' && x.external_traffic_policy === 'Cluster')!;
    const local = exposures.find((x) => x.cloud === 'gcp' && x.external_traffic_policy === 'Local')!;
    const services = [cluster, { ...cluster, mode: 'cluster-2' }, { ...cluster, mode: 'cluster-3' }, local, { ...local, mode: 'local-2' }];
    expect(gcpQuotaNeeds(synth, services).quotas.find((q) => q.metric === 'HEALTH_CHECKS')?.need).toBe(1 + 2);
  });

  test('GIVEN 3 attendees WHEN counted THEN everything scales with the environments, one network each', () => {
    expect(byMetric({ attendees: ['ann', 'bob', 'cy'] })).toMatchObject({
      NETWORKS: 3,
      // Each environment's cluster has its own shared health check for its Cluster Services.
      HEALTH_CHECKS: 15,
      CPUS: 24,
      SSD_TOTAL_GB: 750,
      GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES: 3,
      EXTERNAL_NETWORK_LB_FORWARDING_RULES: 6,
    });
  });

  test('GIVEN two zones, 2 n2-standard-4 nodes each WHEN counted THEN node pool 4 x 4 vCPUs and 4 x 50 GB, default pool one e2-medium and 100 GB per zone', () => {
    expect(byMetric({ gcp: { zones: ['us-central1-a', 'us-central1-b'], nodeCount: 2, machineType: 'n2-standard-4' } })).toMatchObject({
      CPUS: 4 * 4 + 2 * 2,
      CPUS_ALL_REGIONS: 20,
      SSD_TOTAL_GB: 4 * 50 + 2 * 100,
    });
  });

  test('GIVEN more nodes WHEN counted THEN the address count does not change: the nodes are private', () => {
    expect(byMetric({ gcp: { nodeCount: 1 } }).IN_USE_ADDRESSES).toBe(byMetric({ gcp: { nodeCount: 6 } }).IN_USE_ADDRESSES);
  });

  test('GIVEN a machine type whose vCPUs its name does not tell WHEN counted THEN its nodes are left out of CPUS, said as a note', () => {
    const counted = needs({ gcp: { machineType: 'a2-ultragpu-1g' } });
    expect(counted.notes).toEqual(['machine type a2-ultragpu-1g: vCPUs unknown, its 3 nodes not counted in CPUS']);
    expect(counted.quotas.find((q) => q.metric === 'CPUS')?.need).toBe(2);
  });
});

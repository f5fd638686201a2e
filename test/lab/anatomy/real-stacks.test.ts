/**
 * explain over the real app (addLab), synthesized with the default config: what it
 * derives from them must be what their outputs state (EXPOSURE_FACTS).
 */
import { App } from 'cdktf';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { DEFAULT_EXPOSURES } from '../../../lib/model/modes';
import { exposureFacts } from '../../../lib/model/exposure-facts';
import { exposureOutputName } from '../../../lib/model/contract';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { ExplainModel } from '../../../lib/lab/anatomy/model';
import { SynthStack } from '../../../lib/kit/terraform/terraform-json';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';

const config = validConfig({}, 'test');
let dir: string;
let model: ExplainModel;
let stacks: Map<string, SynthStack>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoplab-explain-real-'));
  const app = new App({ outdir: dir });
  addLab(app, config);
  app.synth();
  model = explainDir(dir);
  stacks = new Map(
    readSynthDir(dir)
      .clouds.flatMap((c) => [c.cluster, c.lb])
      .filter((s): s is SynthStack => s !== undefined)
      .map((s) => [s.name, s]),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cases = (['aws', 'gcp'] as const).flatMap((cloud) => DEFAULT_EXPOSURES.filter((mode) => exposureFacts(cloud, mode)).map((mode) => [cloud, mode] as const));

test.each(cases)('%s %s: derived from the resources = stated in the exposure output', (cloud, mode) => {
  const cloudModel = model.environments[0].clouds.find((c) => c.cloud === cloud)!;
  const derived = cloudModel.exposures.find((e) => e.mode === mode)!;
  // The URL in it is computed by Terraform; the facts next to it are literals.
  const raw = (stacks.get(`${config.name}-${cloud}-lb`)!.json.output as Record<string, { value: Record<string, unknown> }>)[exposureOutputName(mode)].value;
  expect({
    lb_kind: derived.lb_kind,
    target_type: derived.target_type,
    expected_hops: derived.expected_hops,
    source_nat: derived.source_nat,
    client_ip_via: derived.client_ip_via,
    client_ip_preserved: derived.client_ip_preserved,
    external_traffic_policy: derived.external_traffic_policy,
  }).toEqual({
    source_nat: raw.source_nat,
    client_ip_via: raw.client_ip_via,
    lb_kind: raw.lb_kind,
    target_type: raw.target_type,
    expected_hops: raw.expected_hops,
    client_ip_preserved: raw.client_ip_preserved,
    external_traffic_policy: raw.external_traffic_policy,
  });
  expect(derived.notes).toEqual([]);
});

test('cluster facts of the real stacks: VPC CNI limit on AWS, alias range on GKE', () => {
  const [aws, gcp] = model.environments[0].clouds;
  expect(aws.capacity).toMatchObject({ max_pods_per_node: 17, node_count: config.aws.nodeCount, machine_type: config.aws.nodeInstanceType });
  expect(gcp.capacity).toMatchObject({ max_pods_per_node: config.gcp.maxPodsPerNode, per_node_range: '/24', pod_address_range: [config.gcp.podCidr] });
});

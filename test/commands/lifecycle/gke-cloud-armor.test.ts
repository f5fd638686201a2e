/**
 * GKE's steps around the Cloud Armor policy of a narrowed app.allowedSourceCidrs,
 * against the recorded-format answers of scenario `armored` (lab running, its
 * policy on its native Ingress's backend service and on the backend service
 * its Gateway left, gke-gateway-api#41; bob's Gateway live with bob's policy)
 * served on loopback; Terraform is a stand-in function:
 * - teardown removes the environment's orphaned backend services and their
 *   NEGs, before the cluster stack deletes the policy and around the lb stack's
 *   destroy (whose namespace waits on those NEGs);
 * - deploy refuses to apply the cluster stack while the policy the config
 *   dropped is still attached, and detaches it after the lb stack;
 * - deploy waits for the BackendConfig and GCPBackendPolicy CRDs where the lb
 *   stack makes those objects.
 */
import { validConfig } from '../../../lib/config/load';
import { orphanedBackendServices } from '../../../lib/commands/lifecycle/gke-backend-services';
import { gcpLbCrds } from '../../../lib/commands/lifecycle/gke-gateway-crds';
import { Answer, fixture, FIXTURE_PROJECT as PROJECT, googleError } from '../../support/google-api';
import { crdObject } from '../../support/kubernetes-api';
import { loopbackGke, terraformStandIn } from '../../support/gke-steps';
import { Json } from '../../support/synth';

const COMPUTE = `/compute/v1/projects/${PROJECT}`;
const ORPHAN = 'gkegw1-x7k2-hoplab-echo-gateway-80-8d7f6g5h4j3k';
const ORPHAN_NEG = 'k8s1-4f2a9c1d-hoplab-echo-gateway-80-5e7c1a9f';
const NATIVE = 'k8s1-4f2a9c1d-hoplab-echo-native-80-6b1f0e2a';
const NARROW = ['203.0.113.0/24', '198.51.100.7/32'];

const loopback = loopbackGke();

/** Steps of `lab` against scenario `armored`, with the lines they print. */
const steps = (options: { allowedSourceCidrs?: string[]; exposures?: string[]; answers?: Record<string, Answer> } = {}) =>
  loopback.steps(
    'armored',
    {
      gcp: { project: PROJECT, zones: ['us-central1-a'] },
      ...(options.allowedSourceCidrs ? { app: { allowedSourceCidrs: options.allowedSourceCidrs } } : {}),
      ...(options.exposures ? { exposures: options.exposures } : {}),
    },
    options,
  );

const terraform = (events: string[], failures: string[] = []) => terraformStandIn(events, failures, 'terraform');

const changes = () =>
  loopback
    .google()
    .requests.filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path.replace(COMPUTE, '')}`);

/** The orphan's lines, as teardown prints them for `stack`. */
const orphanLines = (stack: string) => [
  `  step   ${stack}: backend service ${ORPHAN}: its backends are NEGs of network lab-gke and no URL map or forwarding rule uses it any more (GKE's Gateway controller leaves them: gke-gateway-api#41); it holds its NEG and Cloud Armor policy lab-gke-sources: deleting it`,
  `  step   ${stack}: backend service ${ORPHAN}: deleted in N s`,
  `  step   ${stack}: network endpoint group ${ORPHAN_NEG} (us-central1-a): no backend service uses it any more: deleting it`,
  `  step   ${stack}: network endpoint group ${ORPHAN_NEG}: deleted in N s`,
];
const ORPHAN_DELETES = [`DELETE /global/backendServices/${ORPHAN}`, `DELETE /zones/us-central1-a/networkEndpointGroups/${ORPHAN_NEG}`];

/** `armored`'s aggregated backend services without the orphan: before lab's Gateway was deleted, or once the orphan is gone. */
function withoutOrphan(): Json {
  const list: Json = fixture('armored', `${COMPUTE}/aggregated/backendServices`);
  const global = list.items.global as { backendServices: { name: string }[] };
  return { ...list, items: { ...list.items, global: { backendServices: global.backendServices.filter((s) => s.name !== ORPHAN) } } };
}

describe('teardown: the environment’s orphaned backend services (gke-gateway-api#41)', () => {
  test('GIVEN lab’s Gateway left its backend service, holding its NEG and lab’s policy WHEN lab-gcp-cluster is destroyed THEN the service and then its NEG are deleted and printed before Terraform deletes the policy', async () => {
    const { gke, events } = await steps({ allowedSourceCidrs: NARROW });
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(events.slice(0, 4)).toEqual(orphanLines('lab-gcp-cluster'));
    expect(events.at(-1)).toBe('terraform #1');
    expect(changes().filter((c) => !c.includes('/firewalls/'))).toEqual(ORPHAN_DELETES);
    // Each delete waited for its operation: the global one, then the NEG's in its zone.
    expect(
      loopback
        .google()
        .requests.filter((r) => r.path.includes('/operations/'))
        .map((r) => r.path.replace(COMPUTE, '').replace(/operation-\d+-.*/, 'op')),
    ).toEqual(['/global/operations/op', '/zones/us-central1-a/operations/op']);
  });

  test('GIVEN the orphan appears while lab-gcp-lb is destroyed (the namespace then waits on its NEG and the destroy fails) WHEN destroyed THEN it is removed and Terraform runs once more', async () => {
    const { gke, events } = await steps({
      answers: {
        [`${COMPUTE}/aggregated/backendServices`]: [
          { status: 200, body: withoutOrphan() },
          { status: 200, body: fixture('armored', `${COMPUTE}/aggregated/backendServices`) },
        ],
      },
    });
    const timeout = 'Error: context deadline exceeded\n\n  with kubernetes_namespace_v1.app_namespace_5F1A2B3C,';
    await gke.destroyLb('lab', 'lab-gcp-lb', terraform(events, [timeout]));
    expect(events).toEqual(['terraform #1', ...orphanLines('lab-gcp-lb'), '  step   lab-gcp-lb: destroying again, now that the orphaned backend services are gone', 'terraform #2']);
    expect(changes()).toEqual(ORPHAN_DELETES);
  });

  test('GIVEN a second teardown after one that stopped there WHEN lab-gcp-lb is destroyed THEN the orphan goes first and Terraform runs once', async () => {
    const { gke, events } = await steps();
    await gke.destroyLb('lab', 'lab-gcp-lb', terraform(events));
    expect(events).toEqual([...orphanLines('lab-gcp-lb'), 'terraform #1']);
  });

  test('GIVEN no orphan WHEN the lb stack’s destroy fails THEN the error is Terraform’s, with no retry and nothing deleted', async () => {
    const { gke, events } = await steps({ answers: { [`${COMPUTE}/aggregated/backendServices`]: { status: 200, body: withoutOrphan() } } });
    await expect(gke.destroyLb('lab', 'lab-gcp-lb', terraform(events, ['Error: Unauthorized']))).rejects.toThrow('Error: Unauthorized');
    expect(events).toEqual(['terraform #1']);
    expect(changes()).toEqual([]);
  });

  test('GIVEN the project’s answers WHEN classified THEN only lab’s orphan is one: not lab’s live Ingress services, not its regional L4 service, not bob’s Gateway service', async () => {
    const read = (kind: string): Json[] => Object.values(fixture('armored', `${COMPUTE}/aggregated/${kind}`).items as Record<string, Record<string, Json[]>>).flatMap((s) => s[kind] ?? []);
    const inventory = { negs: read('networkEndpointGroups'), backendServices: read('backendServices'), urlMaps: read('urlMaps'), forwardingRules: read('forwardingRules') };
    const orphans = orphanedBackendServices(inventory, PROJECT, 'lab-gke');
    expect(orphans.map((o) => [o.service.name, o.negs.map((n) => n.name), o.policy])).toEqual([[ORPHAN, [ORPHAN_NEG], 'lab-gke-sources']]);
    expect(orphanedBackendServices(inventory, PROJECT, 'bob-gke')).toEqual([]);
  });
});

describe('deploy: a Cloud Armor policy the config dropped', () => {
  test.each([
    ['app.allowedSourceCidrs widened to the default', {}, 'app.allowedSourceCidrs admits every address'],
    ['every L7 exposure dropped', { allowedSourceCidrs: NARROW, exposures: ['nodeport-l4', 'nodeport-local'] }, 'no Ingress or Gateway exposure is left in exposures'],
  ])('GIVEN %s on a live lab WHEN lab-gcp-cluster is about to be applied THEN it is refused with the two steps, before anything is applied', async (_name, config, why) => {
    const { gke } = await steps(config);
    await expect(gke.beforeClusterApply('lab', 'lab-gcp-cluster')).rejects.toThrow(
      `Cloud Armor policy lab-gke-sources is still attached to backend services ${ORPHAN}, ${NATIVE}, but the config no longer asks for it (${why}): ` +
        'applying lab-gcp-cluster would delete it before lab-gcp-lb lets go of it, and Google refuses to delete a policy in use. ' +
        'Deploy in two steps: npx hoplab deploy --stacks gcp-lb --env lab (the lb stack without the policy; deploy then detaches it from what still holds it), then npx hoplab deploy',
    );
    expect(changes()).toEqual([]);
  });

  test('GIVEN the narrowed list still configured WHEN the cluster stack is about to be applied, or the lb stack was applied THEN nothing is asked', async () => {
    const { gke, events } = await steps({ allowedSourceCidrs: NARROW });
    await gke.beforeClusterApply('lab', 'lab-gcp-cluster');
    await gke.afterLbApply('lab', 'lab-gcp-lb');
    expect(events).toEqual([]);
    expect(loopback.google().requests).toEqual([]);
  });

  test('GIVEN the widened list WHEN lab-gcp-lb was applied (step one) THEN lab’s policy is detached from each of lab’s backend services that hold it, printed, and bob’s stays', async () => {
    const { gke, events } = await steps();
    await gke.afterLbApply('lab', 'lab-gcp-lb');
    expect(events).toEqual(
      [ORPHAN, NATIVE].flatMap((name) => [
        `  step   lab-gcp-lb: backend service ${name}: detaching Cloud Armor policy lab-gke-sources, which the config no longer asks for`,
        `  step   lab-gcp-lb: backend service ${name}: policy detached in N s`,
      ]),
    );
    expect(changes()).toEqual([`POST /global/backendServices/${ORPHAN}/setSecurityPolicy`, `POST /global/backendServices/${NATIVE}/setSecurityPolicy`]);
  });

  test('GIVEN the project cannot be read (Compute Engine API not enabled yet) WHEN the cluster stack is about to be applied, or the detach is refused THEN each says so and deploy goes on', async () => {
    const denied = { status: 403, body: googleError(403, 'PERMISSION_DENIED', 'Compute Engine API has not been used in project hoplab-demo before or it is disabled.', 'accessNotConfigured') };
    const { gke, events } = await steps({ answers: { [`${COMPUTE}/global/backendServices`]: denied } });
    await gke.beforeClusterApply('lab', 'lab-gcp-cluster');
    await gke.afterLbApply('lab', 'lab-gcp-lb');
    expect(events).toEqual([
      expect.stringMatching(
        /^ {2}step {3}lab-gcp-cluster: could not check whether Cloud Armor policy lab-gke-sources is still in use \(GET \S+ answered 403 \(PERMISSION_DENIED\): .*\); applying anyway$/,
      ),
      expect.stringMatching(
        /^ {2}step {3}lab-gcp-lb: GET \S+ answered 403 .*; detach it \(gcloud compute backend-services update <name> --global --security-policy="" --project hoplab-demo\), then run npx hoplab deploy$/,
      ),
    ]);
  });

  test('GIVEN the policy detached WHEN the cluster stack is about to be applied (step two) THEN it goes ahead', async () => {
    const detached: Json = fixture('armored', `${COMPUTE}/global/backendServices`);
    const items = (detached.items as Json[]).map((s) => (String(s.securityPolicy ?? '').endsWith('/lab-gke-sources') ? { ...s, securityPolicy: undefined } : s));
    const { gke, events } = await steps({ answers: { [`${COMPUTE}/global/backendServices`]: { status: 200, body: { ...detached, items } } } });
    await gke.beforeClusterApply('lab', 'lab-gcp-cluster');
    expect(events).toEqual([]);
  });
});

describe('deploy: the CRDs of lab-gcp-lb’s objects', () => {
  test.each([
    ['the default exposures, narrowed', NARROW, undefined, ['gateways', 'httproutes', 'backendconfigs', 'gcpbackendpolicies']],
    ['the default exposures, open', undefined, undefined, ['gateways', 'httproutes']],
    ['Ingress exposures only, narrowed', NARROW, ['native', 'nodeport'], ['backendconfigs']],
    ['L4 exposures only, narrowed', NARROW, ['nodeport-l4'], []],
  ])('GIVEN %s WHEN the CRDs are derived THEN they are the kinds the lb stack makes', (_name, cidrs, exposures, expected) => {
    const config = validConfig({ ...(cidrs ? { app: { allowedSourceCidrs: cidrs } } : {}), ...(exposures ? { exposures } : {}) }, 'test');
    expect(gcpLbCrds(config.exposures, config.app.allowedSourceCidrs).map((c) => c.split('.')[0])).toEqual(expected);
  });

  test('GIVEN a narrowed list with Ingress and Gateway exposures WHEN lab-gcp-lb is about to be applied THEN it waits for the Gateway API, BackendConfig and GCPBackendPolicy CRDs', async () => {
    const kubernetes = await loopback.serveKubernetes((name, count) => (name.startsWith('gcpbackendpolicies.') && count === 0 ? 'absent' : crdObject(name, true)));
    const { gke, events } = await steps({ allowedSourceCidrs: NARROW });
    await gke.beforeLbApply('lab', 'lab-gcp-lb');
    expect(events).toEqual([
      '  wait   lab-gcp-lb: waiting for GKE to install the Gateway API, BackendConfig and GCPBackendPolicy CRDs in lab-gke: gateways established, httproutes established, backendconfigs established, gcpbackendpolicies absent (T of at most T)',
      '  wait   lab-gcp-lb: Gateway API, BackendConfig and GCPBackendPolicy CRDs served by lab-gke (gateways, httproutes, backendconfigs, gcpbackendpolicies) after T',
    ]);
    expect(new Set(kubernetes.requests.map((r) => r.path.split('/').pop()))).toEqual(
      new Set(['gateways.gateway.networking.k8s.io', 'httproutes.gateway.networking.k8s.io', 'backendconfigs.cloud.google.com', 'gcpbackendpolicies.networking.gke.io']),
    );
  });
});

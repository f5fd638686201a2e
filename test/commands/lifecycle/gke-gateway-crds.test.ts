/**
 * Deploy's wait for the Gateway API CRDs before `<env>-gcp-lb` is planned:
 * the cluster's endpoint and CA from GKE's clusters.get (fixtures, bob's
 * running cluster), and a loopback HTTPS server standing in for the cluster's
 * Kubernetes API, trusted only through that CA.
 */
import { GATEWAY_API_CRDS, waitForGatewayCrds } from '../../../lib/commands/lifecycle/gke-gateway-crds';
import { Answer, fixture, FIXTURE_PROJECT as PROJECT, FIXTURE_TOKEN as TOKEN } from '../../support/google-api';
import { crdObject, OTHER_CA, serveCrds } from '../../support/kubernetes-api';
import { loopbackApis } from '../../support/gke-steps';
import { Json } from '../../support/synth';

const CLUSTER = `/container/v1/projects/${PROJECT}/locations/us-central1-b/clusters/bob-gke`;

const loopback = loopbackApis();

async function wait(crd: Parameters<typeof serveCrds>[0], options: { waitMs?: number; answers?: Record<string, Answer>; quotaProject?: string } = {}) {
  const google = await loopback.serveGoogle('clean', options.answers);
  const kubernetes = await loopback.serveKubernetes(crd);
  const lines: string[] = [];
  const run = waitForGatewayCrds({
    project: PROJECT,
    location: 'us-central1-b',
    clusterName: 'bob-gke',
    accessToken: TOKEN,
    quotaProject: options.quotaProject,
    containerApi: google.container,
    kubernetesApi: kubernetes.base,
    // Bounds of the wait under test: how long to wait for the CRDs in all, and how often to look.
    waitMs: options.waitMs ?? 600_000,
    pollMs: 10,
    progressMs: 0,
    write: (line) => lines.push(line.replace(/\d+m\d\ds|\d+s/g, 'T')),
  });
  return { run, lines };
}

describe('waitForGatewayCrds', () => {
  test('GIVEN a cluster where GKE installs the CRDs while deploy waits (absent, then not established, then established) WHEN waited THEN it says what it waits for and resolves once both are established', async () => {
    const { run, lines } = await wait((name, count) => (count < 2 ? 'absent' : count < 3 ? crdObject(name, false) : crdObject(name, true)));
    await run;
    expect(lines).toEqual([
      'waiting for GKE to install the Gateway API CRDs in bob-gke: gateways absent, httproutes absent (T of at most T)',
      'waiting for GKE to install the Gateway API CRDs in bob-gke: gateways absent, httproutes absent (T of at most T)',
      'waiting for GKE to install the Gateway API CRDs in bob-gke: gateways not established yet, httproutes not established yet (T of at most T)',
      'Gateway API CRDs served by bob-gke (gateways, httproutes) after T',
    ]);
    expect(loopback.kubernetes()!.requests.map((r) => r.path)).toEqual([0, 1, 2, 3].flatMap(() => GATEWAY_API_CRDS.map((name) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`)));
    expect(loopback.kubernetes()!.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  test('GIVEN CRDs that are there from the start WHEN waited THEN it resolves at the first look', async () => {
    const { run, lines } = await wait((name) => crdObject(name, true));
    await run;
    expect(lines).toEqual(['Gateway API CRDs served by bob-gke (gateways, httproutes) after T']);
  });

  test('GIVEN CRDs that never come WHEN waited with its bound THEN it rejects saying what is missing, what to check and how to retry', async () => {
    const { run } = await wait((name) => (name.startsWith('gateways.') ? crdObject(name, true) : 'absent'), { waitMs: 300 });
    await expect(run).rejects.toThrow(
      'GKE has not installed the Gateway API CRDs in cluster bob-gke within 0s (gateways established, httproutes absent); ' +
        "the gateway exposure's Gateway and HTTPRoute cannot be planned without them. " +
        `Check: that the cluster's Gateway API channel is CHANNEL_STANDARD (gcloud container clusters describe bob-gke --location us-central1-b --project ${PROJECT} --format="value(networkConfig.gatewayApiConfig.channel)"), ` +
        "that HTTP load balancing is on, that this machine's address is in gcp.masterAuthorizedCidrs, and kubectl get crd gateways.gateway.networking.k8s.io httproutes.gateway.networking.k8s.io. " +
        'Then run npm run deploy again: the cluster stack is applied, so only the -lb stack is left (or leave gateway out of exposures)',
    );
  });

  test('GIVEN a cluster that refuses the identity (403) WHEN waited THEN it rejects at once with the permission it needs', async () => {
    const { run } = await wait(() => ({ status: 403, reason: 'Forbidden' }));
    await expect(run).rejects.toThrow(
      /^cluster bob-gke refused to show CRD gateways\.gateway\.networking\.k8s\.io \(403\): GET https:\/\/127\.0\.0\.1:\d+\/apis\/.* answered 403 \(Forbidden\): Forbidden; the deploying identity needs container\.customResourceDefinitions\.get/,
    );
  });

  test("GIVEN a server the cluster's CA did not sign WHEN waited THEN it is not trusted: the CRDs stay unreadable until the bound", async () => {
    const cluster: Json = fixture('clean', CLUSTER);
    const other = { ...cluster, masterAuth: { clusterCaCertificate: Buffer.from(OTHER_CA).toString('base64') } };
    const { run } = await wait((name) => crdObject(name, true), { waitMs: 200, answers: { [CLUSTER]: { status: 200, body: other } } });
    await expect(run).rejects.toThrow(/\(gateways unreadable: GET https:\/\/127\.0\.0\.1:\d+\/\S+ failed: [^,]*(certificate|self.signed)/);
    expect(loopback.kubernetes()!.requests).toEqual([]);
  });

  test('GIVEN a quota project WHEN waited THEN GKE clusters.get sends it and the cluster API does not', async () => {
    const { run } = await wait((name) => crdObject(name, true), { quotaProject: 'billing-proj' });
    await run;
    expect(loopback.google().requests.map((r) => [r.path, r.userProject])).toEqual([[CLUSTER, 'billing-proj']]);
    expect(loopback.kubernetes()!.requests.map((r) => r.userProject)).toEqual([undefined, undefined]);
  });
});

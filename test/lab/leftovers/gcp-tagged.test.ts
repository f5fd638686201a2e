/**
 * reap's tag search on GCP against Google's API on loopback: the `clean` fixtures (another
 * environment, bob, running, with no hoplab labels) with the four lists the search reads replaced by
 * answers in the documented formats (GKE clusters.list with `resourceLabels`; Compute Engine's
 * aggregated instances, forwarding rules and addresses with `labels`, and the global lists). As the
 * fixtures, these answers are written, not recorded from a live project.
 */
import { searchLines, reapVerdict, ReapReport, reportedLab } from '../../../lib/commands/lifecycle/reap-report';
import { deleteSteps } from '../../../lib/lab/leftovers/delete-steps';
import { findGcpTagged } from '../../../lib/lab/leftovers/gcp-tagged';
import { searchTags } from '../../../lib/lab/leftovers/tag-search';
import { judgeLabs, labsOf } from '../../../lib/lab/leftovers/tagged-labs';
import { gcpPrices, PRICE_TABLE, PRICES_READ } from '../../../lib/lab/estimate/price-table';
import { Answer, FIXTURE_PROJECT as PROJECT, FIXTURE_TOKEN as TOKEN, FixtureApi, serveGoogleFixtures } from '../../support/google-api';

const BASE = `https://www.googleapis.com/compute/v1/projects/${PROJECT}`;
const NOW = new Date('2026-12-07T10:00:00Z');

/** The labels hoplab's google provider puts on everything (gcpLabelValue: lowercase, ':' made '-'). */
const labels = (env: string, workshop: string, expires: string) => ({
  'hoplab-env': env,
  'hoplab-workshop': workshop,
  'hoplab-owner': 'jane-doe',
  'hoplab-expires': expires,
  'hoplab-stack': `${env}-gcp-cluster`,
  'managed-by': 'hoplab',
});
const ZED = labels('zed', 'old-ws', '2026-11-02t18-00-00z');
const AMY = labels('amy', 'next-ws', '2026-12-09t18-00-00z');

const cluster = (name: string, location: string, resourceLabels: object | undefined, nodes: number) => ({
  name,
  location,
  zone: location,
  status: 'RUNNING',
  currentNodeCount: nodes,
  nodeConfig: { machineType: 'e2-standard-2', diskSizeGb: 50, diskType: 'pd-balanced' },
  ...(resourceLabels ? { resourceLabels } : {}),
  selfLink: `https://container.googleapis.com/v1/projects/${PROJECT}/locations/${location}/clusters/${name}`,
});
const instance = (name: string, zone: string, machineType: string, instanceLabels: object) => ({
  kind: 'compute#instance',
  name,
  zone: `${BASE}/zones/${zone}`,
  machineType: `${BASE}/zones/${zone}/machineTypes/${machineType}`,
  status: 'RUNNING',
  labels: instanceLabels,
  selfLink: `${BASE}/zones/${zone}/instances/${name}`,
});
const regional = (kind: string, name: string, region: string, itemLabels?: object) => ({
  kind: `compute#${kind}`,
  name,
  region: `${BASE}/regions/${region}`,
  ...(itemLabels ? { labels: itemLabels } : {}),
  selfLink: `${BASE}/regions/${region}/${kind}s/${name}`,
});
const global = (kind: string, name: string, itemLabels?: object) => ({ kind: `compute#${kind}`, name, ...(itemLabels ? { labels: itemLabels } : {}), selfLink: `${BASE}/global/${kind}s/${name}` });
const noResults = { warning: { code: 'NO_RESULTS_ON_PAGE', message: 'There are no results for scope on this page.' } };
const ok = (body: unknown): Answer => ({ status: 200, body });

const C = `/compute/v1/projects/${PROJECT}`;
const ANSWERS: Record<string, Answer> = {
  [`/container/v1/projects/${PROJECT}/locations/-/clusters`]: ok({
    clusters: [cluster('bob-gke', 'us-central1-b', undefined, 2), cluster('zed-gke', 'us-central1-b', ZED, 2), cluster('amy-gke', 'europe-west1', AMY, 3)],
  }),
  [`${C}/aggregated/instances`]: ok({
    items: {
      'zones/us-central1-b': {
        instances: [
          // A node of zed-gke: GKE labels it, and the cluster's node count prices it.
          instance('gke-zed-gke-zed-gke-nodes-1a2b3c4d-x7k2', 'us-central1-b', 'e2-standard-2', { ...ZED, 'goog-gke-node': '' }),
          instance('zed-bastion', 'us-central1-b', 'e2-medium', ZED),
          instance('gke-bob-gke-bob-gke-nodes-8d2f4a6c-q1w2', 'us-central1-b', 'e2-standard-2', { 'goog-gke-node': '' }),
        ],
      },
      'zones/us-east1-b': noResults,
    },
  }),
  [`${C}/global/forwardingRules`]: ok({ items: [global('forwardingRule', 'zed-web', ZED), global('forwardingRule', 'k8s2-bob-unlabelled')] }),
  [`${C}/aggregated/forwardingRules`]: ok({ items: { 'regions/us-central1': { forwardingRules: [regional('forwardingRule', 'zed-l4', 'us-central1', ZED)] }, global: noResults } }),
  [`${C}/global/addresses`]: ok({ items: [] }),
  [`${C}/aggregated/addresses`]: ok({ items: { 'regions/us-central1': { addresses: [regional('address', 'zed-ip', 'us-central1', ZED), regional('address', 'bob-ip', 'us-central1')] } } }),
};

let api: FixtureApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const access = (served: FixtureApi) => ({ project: PROJECT, accessToken: TOKEN, computeApi: served.compute, containerApi: served.container });

describe("reap's tag search on GCP", () => {
  test('GIVEN a project with two labelled labs and an unlabelled one WHEN searched THEN only the labelled resources are found, GKE nodes not again', async () => {
    api = await serveGoogleFixtures('clean', ANSWERS);
    const found = await findGcpTagged(access(api));
    expect(found.map((r) => [r.kind, r.id, r.slot])).toEqual([
      ['gke:cluster', 'zed-gke', `${PROJECT}/us-central1`],
      ['gke:cluster', 'amy-gke', `${PROJECT}/europe-west1`],
      ['compute:instance', 'zed-bastion', `${PROJECT}/us-central1`],
      ['compute:forwarding-rule', 'zed-web', `${PROJECT}/global`],
      ['compute:forwarding-rule', 'zed-l4', `${PROJECT}/us-central1`],
      ['compute:address', 'zed-ip', `${PROJECT}/us-central1`],
    ]);
    // Every request went to the loopback API with the token; each list is read once.
    expect(api.requests.map((r) => r.path).sort()).toEqual(Object.keys(ANSWERS).sort());
    expect(api.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  test('GIVEN what it found WHEN judged and reported THEN zed is expired with no state here, priced from us-central1 with the unpriced named, and its delete commands are gcloud ones, load balancers first', async () => {
    api = await serveGoogleFixtures('clean', ANSWERS);
    const found = await findGcpTagged(access(api));
    const labs = judgeLabs(labsOf(found), { now: NOW, stateSlot: () => undefined, tornDown: new Map() });
    expect(labs.map((l) => [l.env, l.slot, l.status, l.expiresTag])).toEqual([
      ['zed', `${PROJECT}/us-central1`, 'no state here', '2026-11-02t18-00-00z'],
      ['amy', `${PROJECT}/europe-west1`, 'not expired', '2026-12-09t18-00-00z'],
    ]);
    const zed = labs[0];
    const p = gcpPrices('us-central1');
    const disks = (2 * 50 * p.pdBalancedGbMonth!) / 730;
    expect(zed.cost.perHour).toBeCloseTo(
      0.1 + 2 * p.machineHour!['e2-standard-2'] + disks + p.machineHour!['e2-medium'] + PRICE_TABLE.gcp.everyRegion.globalForwardingRuleHour + p.regionalForwardingRuleHour!,
      10,
    );
    // zed-web's global forwarding rule has the one global price; zed-l4's regional one us-central1's.
    expect(zed.cost.unpriced).toEqual(['gcp us-central1: reserved IP address']);
    const report: ReapReport = {
      schema: 'hoplab.reap/v1',
      now: NOW.toISOString(),
      workshop: { name: 'ws', expiresAt: null, expired: false },
      teardown: { ran: false, environments: [], failed: [], leftovers: [], unchecked: [] },
      searched: [{ cloud: 'gcp', place: PROJECT }],
      labs: labs.map((l) => reportedLab(l, l.status === 'no state here' ? { delete: deleteSteps(l) } : {})),
      clean: false,
    };
    const lines = searchLines(report);
    expect(lines).toEqual([
      "reap: searched hoplab's tags in 1 place: gcp project hoplab-demo",
      'reap: 2 labs found by their tags:',
      '  EXPIRED zed (workshop old-ws) in gcp hoplab-demo/us-central1: expired',
      "    2026-11-02t18-00-00z; no state here (another host's lab, or its state is",
      `    lost); about $0.33/h at list prices read ${PRICES_READ}:`,
      '    gke:cluster zed-gke (us-central1-b, 2 e2-standard-2 nodes)',
      '    compute:instance zed-bastion (us-central1-b, e2-medium)',
      '    compute:forwarding-rule zed-web',
      '    compute:forwarding-rule zed-l4',
      '    compute:address zed-ip',
      '    not priced (counted as $0): gcp us-central1: reserved IP address',
      '    to delete it (reap deletes no lab it has no state for), in this order:',
      "    1. load balancers first: while zed-gke runs, GKE's controllers delete those",
      "       they made for namespace hoplab (and other namespaces' Ingresses,",
      '       LoadBalancer Services and Gateways: delete them too)',
      '         gcloud container clusters get-credentials zed-gke \\',
      '           --location us-central1-b --project hoplab-demo',
      '         kubectl delete namespace hoplab',
      '    2. the cluster zed-gke with its nodes',
      '         gcloud container clusters delete zed-gke --location us-central1-b \\',
      '           --project hoplab-demo --quiet',
      '    3. the forwarding rules',
      '         gcloud compute forwarding-rules delete zed-web --global \\',
      '           --project hoplab-demo --quiet',
      '         gcloud compute forwarding-rules delete zed-l4 --region us-central1 \\',
      '           --project hoplab-demo --quiet',
      '    4. the instances',
      '         gcloud compute instances delete zed-bastion --zone us-central1-b \\',
      '           --project hoplab-demo --quiet',
      '    5. the reserved addresses',
      '         gcloud compute addresses delete zed-ip --region us-central1 \\',
      '           --project hoplab-demo --quiet',
      '    6. last, its network, which hoplab names zed-gke (networks take no labels,',
      '       so the search does not list it); while its subnet, router or firewall',
      '       rules use it the delete names them: delete those first',
      '         gcloud compute networks delete zed-gke --project hoplab-demo --quiet',
      '    then run npx hoplab reap again to see that it is gone',
      '  amy (workshop next-ws) in gcp hoplab-demo/europe-west1: not expired',
      '    (hoplab-expires 2026-12-09t18-00-00z); 1 resource',
    ]);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(reapVerdict(report)).toEqual({ code: 1, line: 'hoplab reap: 1 expired lab still stands, about $0.33/h (see above)' });
  });

  test('GIVEN a zone the aggregated list could not read, or no Google credentials WHEN searched THEN that project could not be looked at, said as that', async () => {
    api = await serveGoogleFixtures('clean', { ...ANSWERS, [`${C}/aggregated/instances`]: ok({ items: {}, unreachables: ['zones/us-east1-b'] }) });
    const withToken = { gcpCredentials: () => ({ accessToken: TOKEN, source: 'GOOGLE_OAUTH_ACCESS_TOKEN' as const }) };
    const unread = await searchTags({ aws: [], gcpProjects: [PROJECT] }, { gcpApis: { compute: api.compute, container: api.container }, finders: withToken });
    expect(unread.resources).toEqual([]);
    expect(unread.places).toEqual([
      { cloud: 'gcp', place: PROJECT, error: `GET ${api.compute}/projects/${PROJECT}/aggregated/instances?returnPartialSuccess=true could not read zones/us-east1-b; run the check again` },
    ]);
    const none = await searchTags({ aws: [], gcpProjects: [PROJECT] }, { finders: { gcpCredentials: () => undefined } });
    expect(none.places).toEqual([{ cloud: 'gcp', place: PROJECT, error: 'no credentials: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN' }]);
  });
});

/**
 * runPreflight as a whole, without credentials: every reason deploy would refuse the request is
 * a failing finding, found in the same run as everything else.
 */
import { labConfig } from '../../../lib/config/schema';
import { runPreflight } from '../../../lib/commands/preflight/preflight';
import { StackKind } from '../../../lib/lab/selection/stack-graph';
import { REQUEST_CHECKS } from '../../../lib/lab/selection/request-problems';
import { deadUrl } from '../../support/echo-servers';
import { renderFindings } from '../../../lib/lab/checks/finding';
import { GCP_QUOTAS } from '../../../lib/model/quotas';
import { gcpSlot } from '../../../lib/model/slots';
import { DeployedSlots } from '../../../lib/lab/files/deployed-slots';
import { placeWithState } from '../../../lib/lab/placement/deployed-placement';
import { preflightApiBases, PREFLIGHT_PROJECT, PREFLIGHT_TOKEN, servePreflightApi } from '../../support/google-api';

describe('preflight of the placeholder config', () => {
  test('GIVEN the default config WHEN preflight runs THEN it fails on every reason deploy refuses: the placeholder project and the world-open endpoints', async () => {
    const dead = await deadUrl();
    const result = await runPreflight({
      config: labConfig.parse({}),
      myIp: '203.0.113.7',
      registryUrl: dead,
      awsApi: dead,
      runTool: () => ({ ok: false, output: 'not found on the PATH' }),
    });
    const request = result.findings.filter((f) => (REQUEST_CHECKS as readonly string[]).includes(f.check));
    expect(request).toEqual([
      {
        check: 'gcp project',
        verdict: 'fail',
        detail: 'gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config',
        fix: 'set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
      },
      {
        check: 'api endpoints',
        verdict: 'fail',
        detail: 'aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) and gcp.masterAuthorizedCidrs (["0.0.0.0/0"]) would open the cluster API endpoints to any address on the internet',
        fix:
          'set them to the addresses you and the attendees deploy and run kubectl from, e.g. your own as "<ip>/32" ' +
          '(curl https://checkip.amazonaws.com shows it), or set allowWorldOpenEndpoints: true in the config to deploy them open',
      },
    ]);
    expect(result.findings.find((f) => f.check === 'gcp')).toEqual({ check: 'gcp', verdict: 'skip', detail: 'not checked: gcp.project is the placeholder "hoplab-demo" (see gcp project)' });
    expect(result.findings.find((f) => f.check === 'default quotas')).toMatchObject({ verdict: 'pass' });
    expect(result.ok).toBe(false);
  });

  test("GIVEN workshop.expiresAt before the date preflight runs on WHEN preflight runs THEN the expiry is a failing finding, with deploy refusal's words; the day before, it is none", async () => {
    const dead = await deadUrl();
    const check = (now: string) =>
      runPreflight({
        config: labConfig.parse({ workshop: { expiresAt: '2026-12-01T18:00:00Z' } }),
        kinds: ['aws-cluster'],
        myIp: '203.0.113.7',
        registryUrl: dead,
        awsApi: dead,
        runTool: () => ({ ok: false, output: 'not found on the PATH' }),
        now: new Date(now),
      });
    const after = await check('2026-12-07T10:00:00Z');
    expect(after.findings.filter((f) => f.check === 'workshop expiry')).toEqual([
      {
        check: 'workshop expiry',
        verdict: 'fail',
        detail:
          'workshop.expiresAt ("2026-12-01T18:00:00Z") has passed (it is 2026-12-07T10:00Z now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists',
        fix: 'set workshop.expiresAt to when this workshop ends, e.g. "2026-12-08T18:00:00Z"',
      },
    ]);
    expect(after.ok).toBe(false);
    const before = await check('2026-11-30T10:00:00Z');
    expect(before.findings.filter((f) => f.check === 'workshop expiry')).toEqual([]);
  });

  test.each([
    ['outside a narrowed list, lb stacks selected', ['198.51.100.0/24'], ['aws-cluster', 'aws-lb'], 'warn'],
    ['inside a narrowed list', ['203.0.113.0/24'], ['aws-cluster', 'aws-lb'], 'pass'],
    ['outside, but no lb stack selected', ['198.51.100.0/24'], ['aws-cluster'], undefined],
    ['under the default list (any address)', ['0.0.0.0/0'], ['aws-cluster', 'aws-lb'], undefined],
  ] as const)('GIVEN the host %s WHEN preflight runs THEN app.allowedSourceCidrs is checked against its address: %#', async (_, allowedSourceCidrs, kinds, verdict) => {
    const dead = await deadUrl();
    const result = await runPreflight({
      config: labConfig.parse({ app: { allowedSourceCidrs } }),
      kinds,
      myIp: '203.0.113.7',
      registryUrl: dead,
      awsApi: dead,
      runTool: () => ({ ok: false, output: 'not found on the PATH' }),
    });
    const finding = result.findings.find((f) => f.check === 'host address app');
    expect(finding?.verdict).toBe(verdict);
    if (verdict === 'warn') {
      expect(finding).toEqual({
        check: 'host address app',
        verdict: 'warn',
        detail:
          "203.0.113.7 (from --my-ip) is outside app.allowedSourceCidrs 198.51.100.0/24: the lab's load balancers do not answer it (AWS's and GKE's L4 ones drop its packets; GKE's Ingress and Gateway answer 403 from Cloud Armor), so verify and compare --probe from here measure nothing",
        fix: 'run verify and compare --probe from an address inside the list, or add 203.0.113.7/32 to app.allowedSourceCidrs and deploy again',
      });
    }
  });
});

describe('preflight of a placed lab', () => {
  const names = Array.from({ length: 6 }, (_, i) => `a${i + 1}`);
  const run = async (raw: unknown) => {
    const dead = await deadUrl();
    return runPreflight({ config: labConfig.parse(raw), myIp: '203.0.113.7', registryUrl: dead, awsApi: dead, runTool: () => ({ ok: false, output: 'not found on the PATH' }) });
  };

  test('GIVEN 6 attendees over two regions and two projects WHEN preflight runs THEN the defaults are checked per slot, every slot is checked with its own credentials (here: said not to be), the needs no default decides are listed per slot, and the placement is reported', async () => {
    const result = await run({ attendees: names, aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'] } });
    expect(result.findings.find((f) => f.check === 'default quotas')).toEqual({
      check: 'default quotas',
      verdict: 'pass',
      detail: "6 environments fit AWS's and Google Cloud's default limits (checked without credentials)",
    });
    // Every slot is checked with its own credentials (none answer here: each is said not to be checked), so no slot is left to the defaults.
    expect(result.findings.filter((f) => /other slots/.test(f.check))).toEqual([]);
    expect(result.findings.find((f) => f.check === 'aws slots not checked')).toEqual({
      check: 'aws slots not checked',
      verdict: 'skip',
      detail: 'no identity in host account, so host/us-east-1, host/us-east-2 were not checked with credentials: zones, quotas (vCPUs included) and names',
    });
    // Without credentials: the vCPUs of each AWS slot, and every GCP metric of the table with its need, per project and region.
    expect(result.findings.find((f) => f.check === 'aws quota needs')?.detail).toBe(
      'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs), AWS sets its value per account, no default: host/us-east-1 24, host/us-east-2 12; preflight checks each slot with credentials (aws quota vcpus)',
    );
    const gcpNeeds = result.findings.find((f) => f.check === 'gcp quota needs (project lab-two-2)');
    expect(gcpNeeds?.verdict).toBe('skip');
    expect(gcpNeeds?.detail).toBe(
      'every Compute Engine quota of the table, what the environments take in project lab-two-2: ' +
        'us-central1: CPUS 16, SSD_TOTAL_GB 500, DISKS_TOTAL_GB 0, NETWORK_ENDPOINT_GROUPS 8, IN_USE_ADDRESSES 6, EXTERNAL_NETWORK_LB_FORWARDING_RULES 4, REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES 4; ' +
        'project-wide: CPUS_ALL_REGIONS 16, NETWORKS 2, SUBNETWORKS 2, ROUTERS 2, FIREWALLS 22, HEALTH_CHECKS 10, TARGET_HTTP_PROXIES 6, URL_MAPS 6, ' +
        'SECURITY_POLICIES 0, SECURITY_POLICY_RULES 0, FORWARDING_RULES 4, GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES 4, GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES 2, GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES 4. ' +
        "Google publishes a default for NETWORKS only; preflight checks each need against the project's own limit and usage with credentials (gcp quota <METRIC>)",
    );
    // Every metric of the table is listed, once per project.
    expect(GCP_QUOTAS.filter((q) => !new RegExp(`[:,] ${q.id} \\d`).test(gcpNeeds?.detail ?? '')).map((q) => q.id)).toEqual([]);
    expect(result.placement?.report.slots.map((s) => [s.slot, s.environments.length])).toEqual([
      ['host/us-east-1', 4],
      ['host/us-east-2', 2],
      ['lab-one-1/us-central1', 4],
      ['lab-two-2/us-central1', 2],
    ]);
    // The JSON form carries it as `placement`.
    const json = JSON.parse(renderFindings(result.findings, 'json', { ...result.meta, placement: result.placement!.report }));
    expect(json.placement.slots).toHaveLength(4);
  });

  test('GIVEN 6 attendees and perSlot 6 in one region WHEN preflight runs THEN each quota over its default is a warning naming its slot', async () => {
    const result = await run({ attendees: names, aws: { regions: ['us-east-1', 'us-east-2'] }, placement: { perSlot: { aws: 6 } } });
    expect(result.findings.filter((f) => f.check.startsWith('aws default quota')).map((f) => f.check)).toEqual([
      'aws default quota vpcs',
      'aws default quota internetGateways',
      'aws default quota natGatewaysPerAz',
      'aws default quota elasticIps',
    ]);
    expect(result.findings.find((f) => f.check === 'aws default quota vpcs')?.detail).toBe(
      "VPCs per Region: 6 environments need 6 in us-east-1, 7 with the default VPC of every region of a fresh account (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (checked without credentials)",
    );
    // With the request that would raise it, if the account holds the default.
    expect(result.findings.find((f) => f.check === 'aws default quota vpcs')?.fix).toBe(
      "with credentials preflight checks your account's own (aws quota vpcs); if it holds the default, request 7: aws service-quotas request-service-quota-increase --service-code vpc --quota-code L-F678F1CE --desired-value 7 --region us-east-1; or deploy fewer environments (--env)",
    );
  });

  test('GIVEN a config without placement WHEN preflight runs THEN it reports no placement', async () => {
    expect((await run({})).placement).toBeUndefined();
  });
});

describe('preflight of a lab partly deployed', () => {
  const config = labConfig.parse({ attendees: ['ann', 'bob'], gcp: { project: PREFLIGHT_PROJECT, masterAuthorizedCidrs: ['203.0.113.7/32'] } });
  const slot = gcpSlot(PREFLIGHT_PROJECT, 'us-central1', ['us-central1-a']);
  /** preflight of ann and bob with credentials (the loopback Google APIs), where the GCP clusters of `deployed` are, as their states say. */
  const rerun = async (deployed: readonly string[], kinds: StackKind[], cpus: { limit: number; usage: number }) => {
    const dead = await deadUrl();
    const api = await servePreflightApi({ enabled: [], granted: (p) => p, clusters: [], existing: [], cpus });
    try {
      const state: DeployedSlots = {
        aws: new Map(),
        gcp: new Map(deployed.map((env) => [env, { slot, from: 'placement output' as const, env, stack: `${env}-gcp-cluster`, where: `${env}-gcp-cluster.tfstate` }])),
        unread: [],
        notRead: [],
      };
      const result = await runPreflight({
        config,
        kinds,
        deployed: placeWithState(config, state),
        myIp: '203.0.113.7',
        registryUrl: dead,
        googleAccessToken: PREFLIGHT_TOKEN,
        googleApis: preflightApiBases(api.base),
        runTool: () => ({ ok: true, output: '' }),
      });
      return (metric: string) => result.findings.find((f) => f.check === `gcp quota ${metric}`);
    } finally {
      await api.close();
    }
  };

  test('GIVEN ann deployed (her state says where) and bob not WHEN preflight runs again with credentials THEN the quotas count only bob: ann’s nodes are among the CPUs in use', async () => {
    // Each environment's 4 nodes take 8 CPUs: ann's 8 are in use, bob's 8 fill the limit of 16 exactly.
    const quota = await rerun(['ann'], ['gcp-cluster'], { limit: 16, usage: 8 });
    expect(quota('CPUS')).toEqual({
      check: 'gcp quota CPUS',
      verdict: 'pass',
      detail: `CPUS in us-central1 of project ${PREFLIGHT_PROJECT}: 8 in use (the environment deployed here among them, their state says) + 8 for the rest of this lab = 16 of 16`,
    });
  });

  test('GIVEN ann and bob with their clusters deployed and their -lb stacks maybe not WHEN preflight runs again THEN their nodes are not counted again, but their load balancers are: whether an -lb stack applied is not read', async () => {
    const quota = await rerun(['ann', 'bob'], ['gcp-cluster', 'gcp-lb'], { limit: 24, usage: 16 });
    expect(quota('CPUS')?.detail).toBe(
      `CPUS in us-central1 of project ${PREFLIGHT_PROJECT}: 16 in use (the 2 environments deployed here among them, their state says) + 0 for the rest of this lab = 16 of 24`,
    );
    expect(quota('GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES')?.detail).toMatch(/: 2 in use \+ 4 for this lab \(2 Gateway[^)]*\) = 6 of 50$/);
    // One Gateway each: both counted, deployed or not (the fake project holds none in use).
    expect(quota('GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES')?.detail).toBe(`GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES in project ${PREFLIGHT_PROJECT}: 0 in use + 2 for this lab (2 Gateway) = 2 of 15`);
  });
});

describe('preflight of a lab whose attendees get tokens minted on GKE', () => {
  const TOKEN_REQUEST = 'container.serviceAccounts.createToken';
  /** preflight of the GCP stacks with credentials (the loopback Google APIs), the host holding every permission asked but `lacking`. */
  const check = async (attendees: unknown[], lacking: readonly string[]) => {
    const dead = await deadUrl();
    const api = await servePreflightApi({ enabled: [], granted: (p) => p.filter((x) => !lacking.includes(x)), clusters: [], existing: [], cpus: { limit: 24, usage: 0 } });
    try {
      const result = await runPreflight({
        config: labConfig.parse({ attendees, gcp: { project: PREFLIGHT_PROJECT, masterAuthorizedCidrs: ['203.0.113.7/32'] } }),
        kinds: ['gcp-cluster', 'gcp-lb'],
        myIp: '203.0.113.7',
        registryUrl: dead,
        googleAccessToken: PREFLIGHT_TOKEN,
        googleApis: preflightApiBases(api.base),
        runTool: () => ({ ok: true, output: '' }),
      });
      return { permissions: result.findings.find((f) => f.check === 'gcp permissions'), asked: api.posts.flat() };
    } finally {
      await api.close();
    }
  };

  test('GIVEN an attendee without a Google identity and a host without container.serviceAccounts.createToken WHEN preflight runs THEN the permission fails, its fix naming a role that holds it', async () => {
    const { permissions, asked } = await check(['ann'], [TOKEN_REQUEST]);
    expect(asked).toContain(TOKEN_REQUEST);
    expect(permissions).toEqual({
      check: 'gcp permissions',
      verdict: 'fail',
      detail: `the deployer lacks 1 of ${asked.length} permissions the stacks need on ${PREFLIGHT_PROJECT}: ${TOKEN_REQUEST}`,
      fix:
        'grant the roles that hold them, e.g. roles/container.admin, roles/compute.networkAdmin, roles/compute.securityAdmin, roles/iam.serviceAccountAdmin, roles/iam.serviceAccountUser, ' +
        `roles/resourcemanager.projectIamAdmin, roles/serviceusage.serviceUsageConsumer (gcloud projects add-iam-policy-binding ${PREFLIGHT_PROJECT} --member=... --role=...); ` +
        `${TOKEN_REQUEST}, with which handout mints the tokens of attendees without a Google identity, is in roles/container.admin (not in roles/editor)`,
    });
  });

  test('GIVEN the same attendee and a host that holds it WHEN preflight runs THEN it is asked and passes', async () => {
    const { permissions, asked } = await check(['ann'], []);
    expect(asked).toContain(TOKEN_REQUEST);
    expect(permissions).toEqual({ check: 'gcp permissions', verdict: 'pass', detail: `all ${asked.length} permissions the stacks need are held on ${PREFLIGHT_PROJECT}` });
  });

  test('GIVEN only attendees with a Google identity (no token to mint on GKE) WHEN preflight runs THEN the permission is not asked', async () => {
    const { permissions, asked } = await check([{ name: 'ann', gcp: 'user:ann@example.com' }], [TOKEN_REQUEST]);
    expect(asked).not.toContain(TOKEN_REQUEST);
    expect(permissions?.verdict).toBe('pass');
  });
});

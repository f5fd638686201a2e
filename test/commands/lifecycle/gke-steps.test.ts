/**
 * GKE's steps beside Terraform in deploy and teardown, against the loopback
 * Google fixture API and a loopback Kubernetes API: the firewall cleanup
 * between `<env>-gcp-lb`'s and `<env>-gcp-cluster`'s destroy (and its retry
 * when the network's deletion still names such a rule), and the Gateway API
 * wait before `<env>-gcp-lb` is applied. Terraform is a stand-in function.
 */
import { blockingFirewall } from '../../../lib/commands/lifecycle/gke-steps';
import { stackTask } from '../../../lib/commands/lifecycle/lifecycle';
import { stackGraph, StackTask } from '../../../lib/lab/selection/stack-graph';
import { GcpSlot, gcpSlot } from '../../../lib/model/slots';
import { Answer, Scenario, FIXTURE_PROJECT as PROJECT, googleError } from '../../support/google-api';
import { crdObject } from '../../support/kubernetes-api';
import { loopbackGke, terraformStandIn } from '../../support/gke-steps';

const COMPUTE = `/compute/v1/projects/${PROJECT}`;
const GATEWAY = 'gkegw1-x7k2-l7-lab-gke-global';
const INGRESS = 'k8s-fw-l7--4f2a9c1d7e3b8a60';
const BLOCKED = (rule: string) =>
  `Error: Error waiting for Deleting Network: The network resource 'projects/${PROJECT}/global/networks/lab-gke' is already being used by 'projects/${PROJECT}/global/firewalls/${rule}'`;

const loopback = loopbackGke();

/** Steps against the fixtures, with the lines they print and the order things happened in. */
const steps = (
  options: { scenario?: Scenario; exposures?: string[]; zones?: string[]; answers?: Record<string, Answer>; credentials?: null; project?: string; slots?: ReadonlyMap<string, GcpSlot> } = {},
) =>
  loopback.steps(
    options.scenario ?? 'leftovers',
    { gcp: { project: options.project ?? PROJECT, ...(options.zones ? { zones: options.zones } : {}) }, ...(options.exposures ? { exposures: options.exposures } : {}) },
    options,
  );

const terraform = (events: string[], failures: string[] = []) => terraformStandIn(events, failures);

const deletes = () =>
  loopback
    .google()
    .requests.filter((r) => r.method === 'DELETE')
    .map((r) => r.path.split('/').pop());
const STEP = '  step   lab-gcp-cluster: ';

describe('teardown of <env>-gcp-cluster: the network’s GKE-made firewall rules first', () => {
  test('GIVEN lab’s network holds the Gateway and Ingress controllers’ per-cluster rules WHEN the cluster stack is destroyed THEN they are deleted and printed before Terraform runs', async () => {
    const { gke, events } = await steps();
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(events).toEqual([
      `${STEP}firewall rule ${GATEWAY} in network lab-gke: the GKE Gateway controller's rule for network lab-gke: one per cluster and network, it outlives the Gateways; a network with a rule on it cannot be deleted: deleting it`,
      `${STEP}firewall rule ${GATEWAY}: deleted in N s`,
      `${STEP}firewall rule ${INGRESS} in network lab-gke: the GKE Ingress controller's rule, shared by every Ingress of the cluster; a network with a rule on it cannot be deleted: deleting it`,
      `${STEP}firewall rule ${INGRESS}: deleted in N s`,
      'terraform destroy #1',
    ]);
    expect(deletes()).toEqual([GATEWAY, INGRESS]);
  });

  test('GIVEN the network delete is still blocked by the Gateway rule (the controller made it again) WHEN destroyed THEN the rules are removed once more and Terraform runs again, once', async () => {
    const { gke, events } = await steps();
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events, [BLOCKED(GATEWAY)]));
    expect(events.filter((e) => e.startsWith('terraform') || e.includes('blocked'))).toEqual([
      'terraform destroy #1',
      `${STEP}deleting network lab-gke was blocked by firewall rule ${GATEWAY}; removing it and destroying again`,
      'terraform destroy #2',
    ]);
    expect(deletes()).toEqual([GATEWAY, INGRESS, GATEWAY, INGRESS]);
  });

  test.each([
    ['another error', 'Error: googleapi: Error 400: The cluster is being updated'],
    ['a rule that is not a GKE controller’s per-cluster rule', BLOCKED('lab-gke-allow-l7-lb')],
    ['a blocked retry', BLOCKED(GATEWAY)],
  ])('GIVEN %s WHEN destroyed THEN the error is Terraform’s, with no (further) retry', async (name, failure) => {
    const { gke, events } = await steps();
    const failures = name === 'a blocked retry' ? [failure, failure] : [failure];
    await expect(gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events, failures))).rejects.toThrow(failure);
    expect(events.filter((e) => e.startsWith('terraform'))).toEqual(name === 'a blocked retry' ? ['terraform destroy #1', 'terraform destroy #2'] : ['terraform destroy #1']);
  });

  test('GIVEN the cleanup cannot delete a rule (403) WHEN destroyed THEN it says so, with the fix, and Terraform still runs (the cluster goes first)', async () => {
    const message = `Required 'compute.firewalls.delete' permission for 'projects/${PROJECT}/global/firewalls/${GATEWAY}'`;
    const { gke, events } = await steps({ answers: { [`DELETE ${COMPUTE}/global/firewalls/${GATEWAY}`]: { status: 403, body: googleError(403, 'PERMISSION_DENIED', message, 'forbidden') } } });
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(events[1]).toMatch(
      new RegExp(
        `^${STEP}could not delete firewall rule ${GATEWAY} of network lab-gke: DELETE \\S+ answered 403 \\(PERMISSION_DENIED\\): .*; destroying anyway \\(the cluster goes first\\)\\. ` +
          `If deleting the network fails on it, delete it \\(gcloud compute firewall-rules delete <rule> --project ${PROJECT}\\) and run npm run teardown again$`,
      ),
    );
    expect(events.at(-1)).toBe('terraform destroy #1');
  });

  test('GIVEN no Google credentials WHEN destroyed THEN it says the orphaned backend services and the rules were not looked for, and Terraform runs', async () => {
    const { gke, events } = await steps({ credentials: null });
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(events).toEqual([
      `${STEP}no Google credentials: orphaned backend services of lab not looked for; deleting the Cloud Armor policy or the network may fail on one`,
      `${STEP}no Google credentials: GKE-made firewall rules of network lab-gke not looked for; deleting the network may fail on one`,
      'terraform destroy #1',
    ]);
    expect(loopback.google().requests).toEqual([]);
  });

  test('GIVEN a network without such rules (the clean project: only bob’s and the default network have Gateway rules) WHEN lab is destroyed THEN it says so and touches nothing', async () => {
    const { gke, events } = await steps({ scenario: 'clean' });
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(events).toEqual([`${STEP}no GKE-made per-cluster firewall rule in network lab-gke`, 'terraform destroy #1']);
    expect(deletes()).toEqual([]);
  });

  test('GIVEN Terraform errors WHEN read THEN only a per-cluster GKE rule of the network counts as blocking', () => {
    expect(blockingFirewall(new Error(BLOCKED(GATEWAY)), PROJECT, 'lab-gke')).toBe(GATEWAY);
    expect(blockingFirewall(new Error(BLOCKED('gkegw1-m3n4-l7-bob-gke-global')), PROJECT, 'lab-gke')).toBeUndefined();
    expect(blockingFirewall(new Error('Error: something else'), PROJECT, 'lab-gke')).toBeUndefined();
  });
});

describe('deploy of <env>-gcp-lb: the Gateway API CRDs first', () => {
  test('GIVEN the gateway exposure WHEN bob’s lb stack is about to be applied THEN it waits until the cluster serves the CRDs, saying so', async () => {
    await loopback.serveKubernetes((name, count) => (count === 0 ? 'absent' : crdObject(name, true)));
    const { gke, events } = await steps({ scenario: 'clean', zones: ['us-central1-b'] });
    await gke.beforeLbApply('bob', 'bob-gcp-lb');
    expect(events).toEqual([
      '  wait   bob-gcp-lb: waiting for GKE to install the Gateway API CRDs in bob-gke: gateways absent, httproutes absent (T of at most T)',
      '  wait   bob-gcp-lb: Gateway API CRDs served by bob-gke (gateways, httproutes) after T',
    ]);
    expect(loopback.google().requests.map((r) => r.path)).toEqual([`/container/v1/projects/${PROJECT}/locations/us-central1-b/clusters/bob-gke`]);
  });

  test('GIVEN no gateway exposure WHEN the lb stack is about to be applied THEN nothing is asked', async () => {
    const { gke, events } = await steps({ exposures: ['native', 'nodeport-l4'], credentials: null });
    await gke.beforeLbApply('lab', 'lab-gcp-lb');
    expect(events).toEqual([]);
    expect(loopback.google().requests).toEqual([]);
  });

  test('GIVEN the gateway exposure and no Google credentials WHEN the lb stack is about to be applied THEN it fails, saying how to log in', async () => {
    const { gke } = await steps({ credentials: null });
    await expect(gke.beforeLbApply('lab', 'lab-gcp-lb')).rejects.toThrow(
      'no Google credentials to check that the cluster serves the Gateway API CRDs: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
    );
  });
});

describe("each environment's steps in its slot", () => {
  // The config names another project: the environments' slots (where their states say they are) are the fixture project's.
  const slots = new Map([
    ['lab', gcpSlot(PROJECT, 'us-central1', ['us-central1-a'])],
    ['bob', gcpSlot(PROJECT, 'us-central1', ['us-central1-b'])],
  ]);

  test("GIVEN lab's slot in another project than gcp.project WHEN its cluster stack is destroyed THEN the firewall rules are removed in the slot's project", async () => {
    const { gke, events } = await steps({ project: 'acme-other-1', slots });
    await gke.destroyCluster('lab', 'lab-gcp-cluster', terraform(events));
    expect(deletes()).toEqual([GATEWAY, INGRESS]);
    expect(new Set(loopback.google().requests.map((r) => r.path.split('/').slice(0, 5).join('/')))).toEqual(new Set([COMPUTE]));
  });

  test("GIVEN bob's slot WHEN its lb stack is about to be applied THEN its cluster is asked for in the slot's project and zone", async () => {
    await loopback.serveKubernetes((name) => crdObject(name, true));
    const { gke } = await steps({ scenario: 'clean', project: 'acme-other-1', slots });
    await gke.beforeLbApply('bob', 'bob-gcp-lb');
    expect(loopback.google().requests.map((r) => r.path)).toEqual([`/container/v1/projects/${PROJECT}/locations/us-central1-b/clusters/bob-gke`]);
  });
});

describe('stackTask: where the steps go', () => {
  const recorder = () => {
    const calls: string[] = [];
    const gke = {
      beforeClusterApply: async (_env: string, stack: string) => void calls.push(`policy check ${stack}`),
      beforeLbApply: async (_env: string, stack: string) => void calls.push(`wait ${stack}`),
      afterLbApply: async (_env: string, stack: string) => void calls.push(`detach ${stack}`),
      destroyLb: async (_env: string, stack: string, destroy: () => Promise<void>) => {
        calls.push(`orphans ${stack}`);
        await destroy();
      },
      destroyCluster: async (_env: string, stack: string, destroy: () => Promise<void>) => {
        calls.push(`cleanup ${stack}`);
        await destroy();
      },
    };
    const aws = {
      beforeClusterApply: async (_env: string, stack: string, tf: (args: readonly string[]) => Promise<string>) => {
        calls.push(`adopt ${stack}`);
        await tf(['state', 'list']);
      },
      destroyLb: async (_env: string, stack: string, destroy: (extraArgs?: readonly string[]) => Promise<void>) => {
        calls.push(`check ${stack}`);
        await destroy(['-refresh=false']);
        calls.push(`cleanup after ${stack}`);
      },
      destroyCluster: async (_env: string, stack: string, destroy: () => Promise<void>) => {
        calls.push(`cleanup ${stack}`);
        await destroy();
      },
    };
    // `before` runs after init, before the apply (StackRunner.run): its Terraform commands are recorded in the stack's directory.
    const terraform = async (task: StackTask, extraArgs?: readonly string[], before?: (tf: (args: readonly string[]) => Promise<string>) => Promise<void>) => {
      await before?.(async (args) => {
        calls.push(`terraform ${task.stack} ${args.join(' ')}`);
        return '';
      });
      calls.push(`terraform ${task.stack}${extraArgs ? ` ${extraArgs.join(' ')}` : ''}`);
    };
    return { calls, steps: { gke, aws }, terraform };
  };

  test.each([
    [
      'deploy',
      undefined,
      [
        'adopt a-aws-cluster',
        'terraform a-aws-cluster state list',
        'terraform a-aws-cluster',
        'terraform a-aws-lb',
        'policy check a-gcp-cluster',
        'terraform a-gcp-cluster',
        'wait a-gcp-lb',
        'terraform a-gcp-lb',
        'detach a-gcp-lb',
      ],
    ],
    [
      'destroy',
      undefined,
      [
        'cleanup a-aws-cluster',
        'terraform a-aws-cluster',
        'check a-aws-lb',
        'terraform a-aws-lb -refresh=false',
        'cleanup after a-aws-lb',
        'cleanup a-gcp-cluster',
        'terraform a-gcp-cluster',
        'orphans a-gcp-lb',
        'terraform a-gcp-lb',
      ],
    ],
    [
      'deploy',
      'http://127.0.0.1:5000',
      ['adopt a-aws-cluster', 'terraform a-aws-cluster state list', 'terraform a-aws-cluster', 'terraform a-aws-lb', 'terraform a-gcp-cluster', 'terraform a-gcp-lb'],
    ],
    [
      'destroy',
      'http://127.0.0.1:5000',
      ['cleanup a-aws-cluster', 'terraform a-aws-cluster', 'check a-aws-lb', 'terraform a-aws-lb -refresh=false', 'cleanup after a-aws-lb', 'terraform a-gcp-cluster', 'terraform a-gcp-lb'],
    ],
  ] as const)(
    'GIVEN a %s (emulator %s) WHEN each task runs THEN the GKE steps go around both GCP stacks (real clouds only), the AWS steps around both AWS destroys and before the cluster’s apply (the emulator too)',
    async (direction, endpoint, expected) => {
      const { calls, steps, terraform } = recorder();
      const run = stackTask(direction, endpoint, steps, terraform);
      // Run in graph order: stackGraph lists each environment's tasks cluster before lb.
      for (const task of stackGraph(['a'], direction)) await run(task);
      expect(calls).toEqual(expected);
    },
  );
});

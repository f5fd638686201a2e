/**
 * The invariant that keeps teardown from locking itself out, checked on the
 * synthesized dependency graph of every stack, for every datapath and exposure set.
 *
 * Every resource or data source that talks to a Kubernetes API (a `helm_*` or
 * `kubernetes_*` type, or anything served by a kubernetes or helm provider)
 * must come after what it authenticates through and what the workloads it
 * installs run with, and go before them on destroy:
 *
 * - EKS, inside a stack: every access entry and policy association of the
 *   identities Terraform runs as (the deploying identity's, and each of
 *   `aws.clusterAdminArns`: a CI runner or another host may run the teardown),
 *   and the IAM policy attachments of every role whose ARN the resource hands
 *   to a workload (IRSA). Only `<env>-aws-cluster` (with Cilium) has such a
 *   resource next to the access entries.
 * - EKS, across stacks: `<env>-aws-lb` reads the cluster and the controller's
 *   role from `<env>-aws-cluster` (cross-stack references), so it cannot name
 *   those resources in `depends_on`; the whole cluster stack is applied before
 *   it and destroyed after it (cdktf's stack dependency, and hoplab's stack
 *   graph for deploy and teardown). There the invariant is: the lb stack
 *   depends on the stack that holds the access entries of every identity
 *   Terraform runs as, and every role it hands to a workload has its policy
 *   attachment in a stack it depends on; it holds no access entry or IAM
 *   attachment of its own that would need an edge inside it.
 * - GKE: the `-lb` stack's providers authenticate as the deployer's Google
 *   identity (Application Default Credentials), authorized by project IAM that
 *   Terraform does not manage: there is no Terraform resource to order after.
 *   What Terraform does manage: the nodes the workloads run on use their own
 *   service account, whose project role binding the cluster and node pool come
 *   after (and go before); the lb stack depends on the cluster stack; no
 *   resource of the cluster stack talks to its own cluster; and a Kubernetes
 *   service account that asks for a Google service account (Workload Identity)
 *   must come after the `roles/iam.workloadIdentityUser` binding that lets it.
 */
import { Testing } from 'cdktf';
import { LabConfigInput } from '../../lib/config/schema';
import { validConfig } from '../../lib/config/load';
import { AWS_DATAPATHS, GCP_DATAPATHS } from '../../lib/model/datapaths';
import { EXPOSURE_MODES } from '../../lib/model/modes';
import { stackGraph } from '../../lib/lab/selection/stack-graph';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';
import { AwsLbStack } from '../../lib/stacks/aws-lb-stack';
import { GcpClusterStack } from '../../lib/stacks/gcp-cluster-stack';
import { GcpLbStack } from '../../lib/stacks/gcp-lb-stack';
import { dependenciesOf, dependencyGraph, destroyOrder } from '../support/graph';
import { Json, Synthesized } from '../support/synth';

/** Providers whose resources talk to a Kubernetes API. */
const KUBERNETES_PROVIDERS = ['kubernetes', 'helm'];

const EXPOSURE_SETS: Record<string, readonly string[]> = {
  'all modes': EXPOSURE_MODES,
  'L4 only': ['nodeport-l4', 'nodeport-local', 'native-l4'],
  'gateway only': ['gateway'],
};

/** Another host or CI runner that may run Terraform against the cluster. */
const ADMIN_ARN = 'arn:aws:iam::123456789012:role/workshop-ci';

/** One synthesized stack with the stacks it depends on. */
interface SynthStack {
  readonly name: string;
  readonly kind: 'aws-cluster' | 'aws-lb' | 'gcp-cluster' | 'gcp-lb';
  readonly json: Synthesized;
  readonly dependsOnStacks: readonly string[];
}

interface Node {
  /** `type.name` or `data.type.name`. */
  readonly address: string;
  readonly type: string;
  readonly body: Json;
  readonly text: string;
}

function nodesOf(json: Synthesized): Node[] {
  const of = (prefix: string, blocks: Synthesized['resource'] | undefined) =>
    Object.entries(blocks ?? {}).flatMap(([type, byName]) => Object.entries(byName).map(([name, body]) => ({ address: `${prefix}${type}.${name}`, type, body, text: JSON.stringify(body) })));
  return [...of('', json.resource), ...of('data.', json.data)];
}

/** The provider a resource or data source is served by: its `provider` argument's name, or its type's prefix. */
function providerOf(node: Node): string {
  const explicit = typeof node.body.provider === 'string' ? (node.body.provider as string).replace(/^\$\{|\}$/g, '') : undefined;
  return (explicit ?? node.type).split(/[._]/)[0];
}

const talksToKubernetes = (node: Node) => KUBERNETES_PROVIDERS.includes(providerOf(node));

/**
 * The access entries and policy associations of the identities Terraform runs as in `json`:
 * the deployer's (its ARN from `aws_iam_session_context`) and each of `adminArns`.
 * Entries of anyone else (workshop attendees) are not Terraform's way in.
 */
function terraformAccess(json: Synthesized, adminArns: readonly string[]): { entries: Map<string, string>; associations: Map<string, string> } {
  const entries = new Map<string, string>();
  for (const node of nodesOf(json).filter((n) => n.type === 'aws_eks_access_entry')) {
    const principal = node.body.principal_arn as string;
    if (principal.includes('data.aws_iam_session_context.')) entries.set(node.address, 'the deploying identity');
    else if (adminArns.includes(principal)) entries.set(node.address, principal);
  }
  const associations = new Map<string, string>();
  for (const node of nodesOf(json).filter((n) => n.type === 'aws_eks_access_policy_association')) {
    const entry = [...entries.keys()].find((address) => (node.body.principal_arn as string).includes(`${address}.`));
    if (entry) associations.set(node.address, entries.get(entry)!);
  }
  return { entries, associations };
}

/** The IAM roles (`aws_iam_role.<name>`) whose ARN `text` hands on. */
function rolesReferenced(text: string): string[] {
  return [...new Set([...text.matchAll(/\baws_iam_role\.([\w-]+)\.arn/g)].map((m) => `aws_iam_role.${m[1]}`))];
}

/** The policy attachments of `role` in `json`. */
function attachmentsOf(json: Synthesized, role: string): string[] {
  return nodesOf(json)
    .filter((n) => n.type === 'aws_iam_role_policy_attachment' && n.text.includes(`${role}.`))
    .map((n) => n.address);
}

/** Cross-stack reads: `(stack, output)` of every `terraform_remote_state` output `text` uses. */
function remoteOutputs(text: string): { stack: string; output: string }[] {
  return [...text.matchAll(/data\.terraform_remote_state\.cross-stack-reference-input-([\w-]+?)\.outputs\.([\w-]+)/g)].map((m) => ({ stack: m[1], output: m[2] }));
}

/**
 * What is wrong with `stack` against the invariant (see the file comment), one
 * message per missing edge; `stacks` are the environment's other stacks.
 */
function violations(stack: SynthStack, stacks: readonly SynthStack[], adminArns: readonly string[]): string[] {
  const problems: string[] = [];
  const graph = dependencyGraph(stack.json, { data: true });
  const order = destroyOrder(dependencyGraph(stack.json));
  const nodes = nodesOf(stack.json);
  const talkers = nodes.filter(talksToKubernetes);
  const deployOrder = stackGraph([stack.name.replace(/-(aws|gcp)-(cluster|lb)$/, '')], 'deploy');
  const teardownOrder = stackGraph([stack.name.replace(/-(aws|gcp)-(cluster|lb)$/, '')], 'destroy');
  const upstream = stacks.filter((s) => stack.dependsOnStacks.includes(s.name));
  const orderedAcross = (other: SynthStack) =>
    deployOrder.find((t) => t.stack === stack.name)?.after.includes(other.name) === true && teardownOrder.find((t) => t.stack === other.name)?.after.includes(stack.name) === true;

  /** `talker` depends on `needed` (directly or through others), and, if it is destroyed at all, goes before it. */
  const mustComeAfter = (talker: Node, needed: string, why: string) => {
    if (!dependenciesOf(graph, talker.address).has(needed)) {
      problems.push(`${stack.name}: ${talker.address} talks to the Kubernetes API but does not depend on ${needed} (${why}), directly or through others: add it to its depends_on`);
    } else if (!talker.address.startsWith('data.') && order.indexOf(needed) < order.indexOf(talker.address)) {
      problems.push(`${stack.name}: ${needed} (${why}) is destroyed before ${talker.address}, which talks to the Kubernetes API`);
    }
  };

  // EKS access inside the stack.
  const { entries, associations } = terraformAccess(stack.json, adminArns);
  const local = new Map([...entries, ...associations]);
  if (stack.kind.startsWith('aws') && talkers.length > 0) {
    const identities = ['the deploying identity', ...adminArns];
    for (const identity of identities) {
      const inStack = [...entries.values()].includes(identity) && [...associations.values()].includes(identity);
      const across = upstream.some((other) => {
        const access = terraformAccess(other.json, adminArns);
        return [...access.entries.values()].includes(identity) && [...access.associations.values()].includes(identity) && orderedAcross(other);
      });
      if (!inStack && !across) {
        problems.push(`${stack.name}: talks to the Kubernetes API, but neither it nor a stack it comes after (and goes before) holds the access entry and policy association of ${identity}`);
      }
    }
  }
  for (const talker of talkers) {
    for (const [address, identity] of local) mustComeAfter(talker, address, `the access of ${identity}`);
    // IRSA roles handed to a workload: their policy attachments, here or in a stack this one comes after.
    for (const role of rolesReferenced(talker.text)) {
      const attachments = attachmentsOf(stack.json, role);
      if (attachments.length === 0) problems.push(`${stack.name}: ${talker.address} hands the role ${role} to a workload, but the role has no policy attachment`);
      for (const attachment of attachments) mustComeAfter(talker, attachment, `the permissions of ${role}, which it installs a workload with`);
    }
    for (const { stack: from, output } of remoteOutputs(talker.text)) {
      const other = stacks.find((s) => s.name === from);
      const value = JSON.stringify(other?.json.output[output]?.value ?? '');
      for (const role of rolesReferenced(value)) {
        if (!other || !upstream.includes(other) || !orderedAcross(other)) {
          problems.push(`${stack.name}: ${talker.address} hands ${from}'s ${role} to a workload, but is not applied after (and destroyed before) ${from}`);
        } else if (attachmentsOf(other.json, role).length === 0) {
          problems.push(`${stack.name}: ${talker.address} hands ${from}'s ${role} to a workload, but the role has no policy attachment there`);
        }
      }
    }
  }
  // A stack reached from another one holds nothing the other would need an edge to.
  if (stack.kind === 'aws-lb') {
    for (const node of nodes.filter((n) => ['aws_eks_access_entry', 'aws_eks_access_policy_association', 'aws_iam_role_policy_attachment'].includes(n.type))) {
      if (!talkers.every((t) => dependenciesOf(graph, t.address).has(node.address))) {
        problems.push(`${stack.name}: ${node.address} is in the lb stack, but not every Kubernetes resource of the stack depends on it`);
      }
    }
  }

  // GKE.
  if (stack.kind === 'gcp-cluster') {
    for (const talker of talkers) problems.push(`${stack.name}: ${talker.address} talks to the Kubernetes API of the cluster this stack creates; put it in the -lb stack`);
    const bindings = nodes.filter((n) => n.type === 'google_project_iam_member' && /google_service_account\.[\w-]+\.member/.test(n.text)).map((n) => n.address);
    if (bindings.length === 0) problems.push(`${stack.name}: no project role binding for the node service account`);
    for (const node of nodes.filter((n) => ['google_container_cluster', 'google_container_node_pool'].includes(n.type))) {
      for (const binding of bindings) {
        if (!dependenciesOf(graph, node.address).has(binding)) problems.push(`${stack.name}: ${node.address} runs nodes as the node service account but does not depend on ${binding}`);
        else if (order.indexOf(binding) < order.indexOf(node.address)) problems.push(`${stack.name}: ${binding} is destroyed before ${node.address}, whose nodes use it`);
      }
    }
  }
  if (stack.kind === 'gcp-lb' && talkers.length > 0) {
    const cluster = upstream.find((s) => s.kind === 'gcp-cluster');
    if (!cluster || !orderedAcross(cluster)) problems.push(`${stack.name}: talks to the GKE cluster but is not applied after (and destroyed before) its cluster stack`);
  }
  problems.push(...workloadIdentityViolations(stack, stacks));
  return problems;
}

/**
 * A Kubernetes service account that asks for a Google service account
 * (`iam.gke.io/gcp-service-account`) must come after the binding that lets it
 * (`roles/iam.workloadIdentityUser` for `serviceAccount:<project>.svc.id.goog[<ns>/<name>]`),
 * in its own stack or in one it is applied after.
 */
function workloadIdentityViolations(stack: SynthStack, stacks: readonly SynthStack[]): string[] {
  const graph = dependencyGraph(stack.json, { data: true });
  const problems: string[] = [];
  const bindingsIn = (json: Synthesized) => nodesOf(json).filter((n) => /^google_service_account_iam_(member|binding)$/.test(n.type) && n.body.role === 'roles/iam.workloadIdentityUser');
  for (const node of nodesOf(stack.json).filter(talksToKubernetes)) {
    for (const match of node.text.matchAll(/iam\.gke\.io\/gcp-service-account(?:\\?"\s*:\s*\\?"|:\s*(?:\\")?)([^"\\\s]+)/g)) {
      const local = bindingsIn(stack.json).filter((b) => dependenciesOf(graph, node.address).has(b.address));
      const upstream = stacks.filter((s) => stack.dependsOnStacks.includes(s.name)).flatMap((s) => bindingsIn(s.json));
      if (local.length === 0 && upstream.length === 0) {
        problems.push(`${stack.name}: ${node.address} asks for the Google service account ${match[1]} (Workload Identity) but comes after no roles/iam.workloadIdentityUser binding`);
      }
    }
  }
  return problems;
}

function awsStacks(raw: LabConfigInput): SynthStack[] {
  const config = validConfig(raw, 'test');
  const app = Testing.app();
  const cluster = new AwsClusterStack(app, `${config.name}-aws-cluster`, { config });
  const lb = new AwsLbStack(app, `${config.name}-aws-lb`, { config, cluster });
  lb.prepareStack();
  return [
    { name: cluster.node.id, kind: 'aws-cluster', json: JSON.parse(Testing.synth(cluster)), dependsOnStacks: cluster.dependencies.map((d) => d.node.id) },
    { name: lb.node.id, kind: 'aws-lb', json: JSON.parse(Testing.synth(lb)), dependsOnStacks: lb.dependencies.map((d) => d.node.id) },
  ];
}

function gcpStacks(raw: LabConfigInput): SynthStack[] {
  const config = validConfig(raw, 'test');
  const app = Testing.app();
  const cluster = new GcpClusterStack(app, `${config.name}-gcp-cluster`, { config });
  const lb = new GcpLbStack(app, `${config.name}-gcp-lb`, { config, cluster });
  lb.prepareStack();
  return [
    { name: cluster.node.id, kind: 'gcp-cluster', json: JSON.parse(Testing.synth(cluster)), dependsOnStacks: cluster.dependencies.map((d) => d.node.id) },
    { name: lb.node.id, kind: 'gcp-lb', json: JSON.parse(Testing.synth(lb)), dependsOnStacks: lb.dependencies.map((d) => d.node.id) },
  ];
}

const exposureSets = Object.entries(EXPOSURE_SETS);

describe('Kubernetes API access order (every stack, datapath and exposure set)', () => {
  describe.each(AWS_DATAPATHS.flatMap((datapath) => exposureSets.map(([set, exposures]) => ({ datapath, set, exposures }))))(
    'GIVEN EKS with datapath $datapath and $set',
    ({ datapath, exposures }) => {
      const stacks = awsStacks({ exposures: [...exposures] as LabConfigInput['exposures'], aws: { datapath, clusterAdminArns: [ADMIN_ARN] } });

      test.each(stacks.map((s) => [s.kind, s]))(
        'WHEN %s is synthesized THEN everything that talks to the cluster comes after, and goes before, the access it uses and its workloads’ IAM attachments',
        (_kind, stack) => {
          expect(violations(stack as SynthStack, stacks, [ADMIN_ARN])).toEqual([]);
        },
      );
    },
  );

  describe.each(GCP_DATAPATHS.flatMap((datapath) => exposureSets.map(([set, exposures]) => ({ datapath, set, exposures }))))(
    'GIVEN GKE with datapath $datapath and $set',
    ({ datapath, exposures }) => {
      const stacks = gcpStacks({ exposures: [...exposures] as LabConfigInput['exposures'], gcp: { datapath } });

      test.each(stacks.map((s) => [s.kind, s]))('WHEN %s is synthesized THEN the GKE side of the invariant holds', (_kind, stack) => {
        expect(violations(stack as SynthStack, stacks, [])).toEqual([]);
      });
    },
  );

  describe('the check itself', () => {
    const [cluster, lb] = awsStacks({ aws: { datapath: 'cilium', clusterAdminArns: [ADMIN_ARN] } });

    test('GIVEN Cilium WHEN the stacks are read THEN the release is found as a Kubernetes resource and the deployer’s and the admin’s access as Terraform’s', () => {
      const release = nodesOf(cluster.json).filter(talksToKubernetes);
      expect(release.map((n) => n.address)).toEqual([expect.stringMatching(/^helm_release\.cilium_release_/)]);
      const access = terraformAccess(cluster.json, [ADMIN_ARN]);
      expect([...access.entries.values()].sort()).toEqual([ADMIN_ARN, 'the deploying identity']);
      expect([...access.associations.values()].sort()).toEqual([ADMIN_ARN, 'the deploying identity']);
      expect(rolesReferenced(release[0].text)).toEqual([expect.stringMatching(/^aws_iam_role\.cilium-operator-role_\w+$/)]);
      expect(nodesOf(lb.json).filter(talksToKubernetes).length).toBeGreaterThan(5);
    });

    test('GIVEN an attendee’s access entry WHEN read THEN it is not taken for Terraform’s own way in', () => {
      const json = {
        resource: {
          aws_eks_access_entry: { attendee: { principal_arn: 'arn:aws:iam::123456789012:role/ann' } },
          aws_eks_access_policy_association: { attendee_view: { principal_arn: '${aws_eks_access_entry.attendee.principal_arn}' } },
        },
      } as unknown as Synthesized;
      expect(terraformAccess(json, [ADMIN_ARN])).toEqual({ entries: new Map(), associations: new Map() });
    });

    test('GIVEN a Kubernetes object that forgets the access entries WHEN checked THEN each missing edge is named', () => {
      const json = structuredClone(cluster.json) as Synthesized;
      json.resource.kubernetes_namespace_v1 = { forgetful: { metadata: { name: 'x' } } };
      const missing = (access: string, who: string) =>
        expect.stringMatching(
          new RegExp(
            `^lab-aws-cluster: kubernetes_namespace_v1\\.forgetful talks to the Kubernetes API but does not depend on ${access}_\\w+ \\(the access of ${who}\\), directly or through others: add it to its depends_on$`,
          ),
        );
      const admin = 'arn:aws:iam::123456789012:role/workshop-ci';
      expect(violations({ ...cluster, json }, [cluster, lb], [ADMIN_ARN])).toEqual([
        missing('aws_eks_access_entry\\.eks_admin-role-workshop-ci', admin),
        missing('aws_eks_access_entry\\.eks_deployer-admin', 'the deploying identity'),
        missing('aws_eks_access_policy_association\\.eks_admin-role-workshop-ci-policy', admin),
        missing('aws_eks_access_policy_association\\.eks_deployer-admin-policy', 'the deploying identity'),
      ]);
    });

    test('GIVEN a lb stack that is not applied after the cluster stack WHEN checked THEN it is told it has no access', () => {
      expect(violations({ ...lb, dependsOnStacks: [] }, [cluster, lb], [ADMIN_ARN])).toEqual([
        'lab-aws-lb: talks to the Kubernetes API, but neither it nor a stack it comes after (and goes before) holds the access entry and policy association of the deploying identity',
        `lab-aws-lb: talks to the Kubernetes API, but neither it nor a stack it comes after (and goes before) holds the access entry and policy association of ${ADMIN_ARN}`,
        expect.stringMatching(
          /^lab-aws-lb: helm_release\.lb-controller_release_\w+ hands lab-aws-cluster's aws_iam_role\.lb-controller-role_\w+ to a workload, but is not applied after \(and destroyed before\) lab-aws-cluster$/,
        ),
      ]);
    });

    test('GIVEN a GKE service account that asks for a Google service account without a binding WHEN checked THEN it is named', () => {
      const [gcpCluster, gcpLb] = gcpStacks({});
      const json = structuredClone(gcpLb.json) as Synthesized;
      json.resource.kubernetes_service_account_v1 = {
        app: { metadata: { name: 'app', namespace: 'hoplab', annotations: { 'iam.gke.io/gcp-service-account': 'app@hoplab-demo.iam.gserviceaccount.com' } } },
      };
      expect(violations({ ...gcpLb, json }, [gcpCluster, gcpLb], [])).toEqual([
        'lab-gcp-lb: kubernetes_service_account_v1.app asks for the Google service account app@hoplab-demo.iam.gserviceaccount.com (Workload Identity) but comes after no roles/iam.workloadIdentityUser binding',
      ]);
    });
  });
});

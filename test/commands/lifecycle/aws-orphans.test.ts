/**
 * Deploy adopting what an interrupted deploy left out of a cluster stack's
 * state (aws-orphans.ts), on the default lab's synthesized aws-cluster stack:
 * which names it looks for, which it takes (this environment's of this
 * workshop, by its tags), the import ids, what it says, that a stack never
 * applied is not looked at, and that a lookup that fails stops nothing. The
 * real IAM, import and apply: test/emulator/lifecycle-emulator.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig } from '../../../lib/config/schema';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { adoptOrphans, namedResources } from '../../../lib/commands/lifecycle/aws-orphans';
import { SynthStack } from '../../../lib/kit/terraform/terraform-json';
import { accountHolding } from '../../support/account-lookup';

const WORKSHOP = 'spring-lab';
let stack: SynthStack;

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-orphans-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, labConfig.parse({ name: 'ws1', workshop: { name: WORKSHOP } }));
    app.synth();
    stack = readSynthDir(dir).clouds.find((c) => c.cluster?.name === 'ws1-aws-cluster')!.cluster!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const ours = { 'hoplab-env': 'ws1', 'hoplab-workshop': WORKSHOP };

/** adoptOrphans with a stand-in Terraform whose `state list` says `listed` (or that there is no state); the calls and lines. */
async function adopt(listed: string | 'no state', account: ReturnType<typeof accountHolding>) {
  const calls: string[] = [];
  const lines: string[] = [];
  const adopted = await adoptOrphans({
    stack,
    env: 'ws1',
    workshop: WORKSHOP,
    lookup: account,
    terraform: async (args) => {
      calls.push(args.join(' '));
      if (args[0] === 'state' && listed === 'no state') throw new Error('terraform state failed (1); last lines:\nNo state file was found!');
      return args[0] === 'state' ? listed : '';
    },
    say: (line) => lines.push(line),
  });
  return { adopted, calls, lines };
}

describe('namedResources', () => {
  test('GIVEN the default aws-cluster stack THEN its IAM roles and policies, by address and fixed name', () => {
    const named = namedResources(stack);
    expect(named.map((r) => `${r.type} ${r.name}`).sort()).toEqual(
      expect.arrayContaining([
        'aws_iam_role ws1-eks-cluster',
        'aws_iam_role ws1-eks-nodes-node',
        'aws_iam_role ws1-eks-aws-lb-controller',
        'aws_iam_policy ws1-eks-aws-lb-controller',
        'aws_cloudwatch_log_group /aws/eks/ws1-eks/cluster',
      ]),
    );
    expect(named.every((r) => r.address.startsWith(`${r.type}.`))).toBe(true);
  });
});

describe('adoptOrphans', () => {
  test('GIVEN a role and a policy the state lacks that exist tagged as ws1’s THEN each is imported (a role by name, a policy by ARN), saying so; the names the state holds are not looked up', async () => {
    const named = namedResources(stack);
    const role = named.find((r) => r.name === 'ws1-eks-aws-lb-controller' && r.type === 'aws_iam_role')!;
    const policy = named.find((r) => r.type === 'aws_iam_policy' && r.name === 'ws1-eks-aws-lb-controller')!;
    const kept = named.filter((r) => r !== role && r !== policy);
    const policyArn = 'arn:aws:iam::111122223333:policy/ws1-eks-aws-lb-controller';
    const account = accountHolding({ 'ws1-eks-aws-lb-controller': ours, [policyArn]: ours });
    const { adopted, calls, lines } = await adopt(['aws_vpc.vpc', ...kept.map((r) => r.address)].join('\n'), account);
    expect(adopted.map((o) => o.importId).sort()).toEqual([policyArn, 'ws1-eks-aws-lb-controller'].sort());
    expect(account.asked.sort()).toEqual([policyArn, 'ws1-eks-aws-lb-controller'].sort());
    expect(calls).toEqual(['state list -no-color', ...adopted.map((o) => `import -input=false -no-color ${o.resource.address} ${o.importId}`)]);
    expect(calls).toContain(`import -input=false -no-color ${role.address} ws1-eks-aws-lb-controller`);
    expect(calls).toContain(`import -input=false -no-color ${policy.address} ${policyArn}`);
    expect(lines).toContain("IAM role ws1-eks-aws-lb-controller exists, tagged as ws1's, but not in the stack's state (a deploy was interrupted while making it): importing it");
  });

  test.each([
    ['another environment’s', { 'hoplab-env': 'ws2', 'hoplab-workshop': WORKSHOP }],
    ['another workshop’s', { 'hoplab-env': 'ws1', 'hoplab-workshop': 'autumn-lab' }],
    ['untagged', {}],
  ])('GIVEN a role the state lacks that exists %s THEN it is left alone (the apply fails on it; preflight names it first)', async (_, tags) => {
    const { adopted, calls } = await adopt('aws_vpc.vpc', accountHolding({ 'ws1-eks-cluster': tags }));
    expect(adopted).toEqual([]);
    expect(calls).toEqual(['state list -no-color']);
  });

  test('GIVEN the log group the state lacks, tagged as ws1’s THEN it is imported by its name', async () => {
    const named = namedResources(stack);
    const group = named.find((r) => r.type === 'aws_cloudwatch_log_group')!;
    const others = named.filter((r) => r !== group);
    const { calls, lines } = await adopt(others.map((r) => r.address).join('\n'), accountHolding({ '/aws/eks/ws1-eks/cluster': ours }));
    expect(calls).toEqual(['state list -no-color', `import -input=false -no-color ${group.address} /aws/eks/ws1-eks/cluster`]);
    expect(lines).toEqual(["log group /aws/eks/ws1-eks/cluster exists, tagged as ws1's, but not in the stack's state (a deploy was interrupted while making it): importing it"]);
  });

  test('GIVEN every name in the state THEN nothing is looked up', async () => {
    const account = accountHolding();
    const { adopted } = await adopt(
      namedResources(stack)
        .map((r) => r.address)
        .join('\n'),
      account,
    );
    expect([adopted, account.asked]).toEqual([[], []]);
  });

  test('GIVEN a stack never applied (no state file) THEN nothing is looked up: even an interrupted apply writes one', async () => {
    const account = accountHolding({ 'ws1-eks-cluster': ours });
    const { adopted, calls } = await adopt('no state', account);
    expect([adopted, account.asked, calls]).toEqual([[], [], ['state list -no-color']]);
  });

  test('GIVEN a lookup that fails THEN the deploy goes on, saying what to do if the apply meets an orphan', async () => {
    const account = accountHolding();
    const failing = { ...account, role: async () => Promise.reject(new Error('AccessDenied: iam:GetRole')) };
    const lines: string[] = [];
    const adopted = await adoptOrphans({ stack, env: 'ws1', workshop: WORKSHOP, lookup: failing, terraform: async () => 'aws_vpc.vpc', say: (line) => lines.push(line) });
    expect(adopted).toEqual([]);
    expect(lines).toEqual([
      'could not look for IAM roles, policies and log groups an interrupted deploy may have left out of the state (AccessDenied: iam:GetRole); if the apply fails with EntityAlreadyExists, import the one it names (terraform import) or delete it',
    ]);
  });
});

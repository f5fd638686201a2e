/**
 * `npx hoplab reap` in-process, with everything real but Terraform and the clouds: a stand-in
 * Terraform on the PATH that logs each call and empties the state it destroys (LOGGING_TERRAFORM),
 * the emulator's local state (HOPLAB_AWS_ENDPOINT at an address that answers nothing, so the
 * backend-group step says it could not run and the destroy goes on), a fixed wall clock, and
 * stand-ins for the two searches (teardown's leftover check, and the tag search; the search itself
 * is tested against moto, test/emulator/reap-emulator.test.ts, and against Google's API on
 * loopback, test/lab/leftovers/gcp-tagged.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reap, ReapDeps } from '../../../lib/commands/lifecycle/reap';
import { REAP_COMMAND } from '../../../lib/commands/lifecycle/command';
import { COMMANDS } from '../../../lib/commands/pipeline/jobs';
import { AwsTagQuery } from '../../../lib/lab/leftovers/aws-tagged';
import { TaggedResource } from '../../../lib/lab/leftovers/tagged-resource';
import { labTags } from '../../../lib/model/tags';
import { commandDir } from '../../support/command-dir';
import { deadUrl } from '../../support/echo-servers';
import { fakeTerraformOnPath, LOGGING_TERRAFORM } from '../../support/fake-terraform';
import { PRICES_READ } from '../../../lib/lab/estimate/price-table';

const NOW = new Date('2026-12-07T10:00:00Z');
const PAST = '2026-12-07T09:00:00Z';
const AHEAD = '2026-12-09T18:00:00Z';
const STATE_DIR = join('.hoplab', 'emulator');
const SLOT = 'host/us-east-1';

/** A cluster state as an applied aws-cluster stack leaves it: a resource instance, and the placement output. */
const deployedState = (env: string) =>
  JSON.stringify({
    version: 4,
    outputs: { placement: { value: { cloud: 'aws', slot: SLOT, account: 'host', region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] } } },
    resources: [{ type: 'aws_vpc', name: 'vpc', instances: [{ attributes: { id: `vpc-${env}`, arn: `arn:aws:ec2:us-east-1:123456789012:vpc/vpc-${env}` } }] }],
  });

/** A lab's resources as the tag search finds them in `slot`, tagged as hoplab tags them. */
function labFound(env: string, workshop: string, expiresAt: string, slot = SLOT): TaggedResource[] {
  const tags = labTags({ name: env, workshop: { name: workshop, owner: 'someone', expiresAt } }, `${env}-aws-cluster`);
  const region = slot.split('/')[1];
  const at = { cloud: 'aws' as const, slot, region, tags };
  return [
    { ...at, kind: 'ec2:vpc', id: `vpc-0${env}` },
    { ...at, kind: 'eks:cluster', id: `${env}-eks`, nodegroups: [`${env}-nodes`] },
    { ...at, kind: 'ec2:instance', id: `i-0${env}1`, instanceType: 't3.medium', nodegroup: `${env}-nodes` },
    { ...at, kind: 'ec2:instance', id: `i-0${env}2`, instanceType: 't3.medium', nodegroup: `${env}-nodes` },
    { ...at, kind: 'ec2:nat-gateway', id: `nat-0${env}` },
    { ...at, kind: 'ec2:elastic-ip', id: `eipalloc-0${env}` },
    {
      ...at,
      kind: 'elbv2:load-balancer',
      id: `arn:aws:elasticloadbalancing:${region}:123456789012:loadbalancer/app/k8s-hoplab-${env}/0123456789abcdef`,
      name: `k8s-hoplab-${env}`,
      lbType: 'application',
      internetFacing: true,
      zones: 2,
    },
  ];
}

describe('reap', () => {
  const { dir: cwd, lines: out, errors: err } = commandDir('hoplab-reap-');
  const saved = { ...process.env };
  let dir: string;
  let restorePath: () => void;
  let searched: AwsTagQuery[];
  /** What the tag search finds, per slot. */
  let found: Record<string, TaggedResource[] | Error>;

  const deps = (): ReapDeps => ({
    clock: { now: () => NOW },
    accounts: async () => [],
    leftoverFinders: { aws: async () => [] },
    tagFinders: {
      aws: async (query) => {
        searched.push(query);
        const answer = found[query.slot.id] ?? [];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
  });
  const config = (expiresAt: string | undefined) =>
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ attendees: ['ann', 'bob'], workshop: { name: 'reap-test', ...(expiresAt ? { expiresAt } : {}) } }));
  /** The stand-in's calls, in order: `<stack> <subcommand>`. */
  const calls = () => (existsSync(join(dir, 'terraform-calls.log')) ? readFileSync(join(dir, 'terraform-calls.log'), 'utf8').trim().split('\n') : []);
  const annState = () => join(dir, STATE_DIR, 'terraform.ann-aws-cluster.tfstate');

  beforeEach(async () => {
    dir = cwd();
    Object.assign(process.env, {
      HOPLAB_AWS_ENDPOINT: await deadUrl(),
      HOPLAB_TF_LOG: join(dir, 'terraform-calls.log'),
      HOPLAB_TF_STATE: join(dir, STATE_DIR),
      HOPLAB_TF_FAIL: join(dir, 'fail'),
    });
    restorePath = fakeTerraformOnPath('hoplab-reap-tf-', LOGGING_TERRAFORM).restore;
    mkdirSync(join(dir, STATE_DIR), { recursive: true });
    writeFileSync(annState(), deployedState('ann'));
    searched = [];
    found = {};
  });

  afterEach(() => {
    restorePath();
    for (const name of ['HOPLAB_TF_LOG', 'HOPLAB_TF_STATE', 'HOPLAB_TF_FAIL']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  test('GIVEN workshop.expiresAt ahead WHEN reap runs THEN nothing is torn down, it says when it will, and it still searches', async () => {
    config(AHEAD);
    found[SLOT] = labFound('ann', 'reap-test', AHEAD);
    expect(await reap(['--yes'], deps())).toBe(0);
    expect(calls()).toEqual([]);
    expect(readFileSync(annState(), 'utf8')).toBe(deployedState('ann'));
    expect(searched.map((q) => q.slot.id)).toEqual([SLOT]);
    expect(out()).toEqual([
      'note: HOPLAB_AWS_ENDPOINT is set (the emulator): only the aws-cluster stacks',
      '  are torn down, and only AWS is searched',
      'hoplab reap: workshop.expiresAt (2026-12-09T18:00:00Z) has not passed (it is',
      '  2026-12-07T10:00Z now): nothing is torn down before then; searching for',
      '  expired labs all the same',
      "reap: searched hoplab's tags in 1 place: aws host/us-east-1",
      'reap: 1 lab found by its tags:',
      '  ann (workshop reap-test) in aws host/us-east-1: not expired (hoplab-expires',
      '    2026-12-09T18:00:00Z); 7 resources',
      'hoplab reap: nothing expired is left standing (1 lab not expired yet)',
    ]);
    expect(err()).toEqual([]);
  });

  test('GIVEN workshop.expiresAt unset WHEN reap runs THEN nothing is torn down and it says it never will until it is set', async () => {
    config(undefined);
    expect(await reap(['--yes'], deps())).toBe(0);
    expect(calls()).toEqual([]);
    expect(out().slice(2, 5)).toEqual([
      'hoplab reap: workshop.expiresAt is unset: nothing is torn down until it is set',
      '  and has passed (e.g. "2026-12-08T18:00:00Z"); searching for expired labs all',
      '  the same',
    ]);
    expect(out().at(-1)).toBe('hoplab reap: nothing expired is left standing');
  });

  test('GIVEN workshop.expiresAt passed, one environment with state and one without WHEN reap --yes runs THEN it lists and tears down the one with state as teardown does, then names the stateless expired lab with its cost and delete commands, exit 1', async () => {
    config(PAST);
    // zed: another host's lab (no state here), expired a month ago; carl: not expired yet.
    found[SLOT] = [...labFound('zed', 'old-workshop', '2026-11-02T18:00:00Z'), ...labFound('carl', 'next-workshop', AHEAD).slice(0, 1)];
    expect(await reap(['--yes'], deps())).toBe(1);
    // Only ann had state: its one stack destroyed (init, then destroy), nothing of bob; the state emptied.
    expect(calls()).toEqual(['ann-aws-cluster init', 'ann-aws-cluster destroy']);
    expect(JSON.parse(readFileSync(annState(), 'utf8'))).toEqual({ version: 4, resources: [] });
    const text = out().join('\n');
    expect(out().slice(0, 8)).toEqual([
      'note: HOPLAB_AWS_ENDPOINT is set (the emulator): only the aws-cluster stacks',
      '  are torn down, and only AWS is searched',
      'hoplab reap: workshop.expiresAt (2026-12-07T09:00:00Z) has passed (it is',
      '  2026-12-07T10:00Z now)',
      'reap: 1 environment has state here, torn down where it is:',
      '  ann: aws host/us-east-1',
      'destroy: 1 stack of 1 environment, 4 at a time (logs: .hoplab/logs/)',
      '  start  ann-aws-cluster (destroy; 1 running)',
    ]);
    expect(text).toContain('leftovers: none in aws for ann');
    const search = out().slice(out().indexOf("reap: searched hoplab's tags in 1 place: aws host/us-east-1"));
    expect(search).toEqual([
      "reap: searched hoplab's tags in 1 place: aws host/us-east-1",
      'reap: 2 labs found by their tags:',
      '  EXPIRED zed (workshop old-workshop) in aws host/us-east-1: expired',
      "    2026-11-02T18:00:00Z; no state here (another host's lab, or its state is",
      `    lost); about $0.27/h at list prices read ${PRICES_READ}:`,
      '    ec2:vpc vpc-0zed',
      '    eks:cluster zed-eks',
      '    ec2:instance i-0zed1 (t3.medium, node group zed-nodes)',
      '    ec2:instance i-0zed2 (t3.medium, node group zed-nodes)',
      '    ec2:nat-gateway nat-0zed',
      '    ec2:elastic-ip eipalloc-0zed',
      '    elbv2:load-balancer k8s-hoplab-zed (application, internet-facing)',
      '    to delete it (reap deletes no lab it has no state for), in this order:',
      '    1. load balancers first: while zed-eks runs, its controller deletes those it',
      "       made for namespace hoplab (and other namespaces' Ingresses, LoadBalancer",
      '       Services and Gateways: delete them too)',
      '         aws eks update-kubeconfig --name zed-eks --region us-east-1',
      '         kubectl delete namespace hoplab',
      '    2. then each load balancer still there (all of them, if the cluster is',
      '       gone):',
      '         aws elbv2 delete-load-balancer --region us-east-1 \\',
      '           --load-balancer-arn "$(aws elbv2 describe-load-balancers \\',
      '           --region us-east-1 --names k8s-hoplab-zed \\',
      "           --query 'LoadBalancers[0].LoadBalancerArn' --output text)\"",
      '    3. the cluster zed-eks: its node groups first (EKS refuses to delete a',
      '       cluster that has some), then the cluster',
      '         aws eks delete-nodegroup --cluster-name zed-eks \\',
      '           --nodegroup-name zed-nodes --region us-east-1',
      '         aws eks wait nodegroup-deleted --cluster-name zed-eks \\',
      '           --nodegroup-name zed-nodes --region us-east-1',
      '         aws eks delete-cluster --name zed-eks --region us-east-1',
      '         aws eks wait cluster-deleted --name zed-eks --region us-east-1',
      '    4. the NAT gateways, and wait until they are gone (each holds an Elastic IP)',
      '         aws ec2 delete-nat-gateway --nat-gateway-id nat-0zed \\',
      '           --region us-east-1',
      '         aws ec2 wait nat-gateway-deleted --nat-gateway-ids nat-0zed \\',
      '           --region us-east-1',
      '    5. the Elastic IPs',
      '         aws ec2 release-address --allocation-id eipalloc-0zed \\',
      '           --region us-east-1',
      '    6. last, vpc-0zed with what it still holds: VPC console (us-east-1), Your',
      '       VPCs, vpc-0zed, Actions, Delete VPC: it deletes its subnets, route',
      '       tables, internet gateway and security groups with it, and names anything',
      '       else that still uses it',
      '    then run npx hoplab reap again to see that it is gone',
      '  carl (workshop next-workshop) in aws host/us-east-1: not expired',
      '    (hoplab-expires 2026-12-09T18:00:00Z); 1 resource',
    ]);
    // reap's own lines fit 80 columns; the destroy's step lines are teardown's own, as teardown prints them.
    expect(out().filter((line) => line.length > 80 && !line.startsWith('  step   '))).toEqual([]);
    expect(err()).toEqual(['hoplab reap: 1 expired lab still stands, about $0.27/h (see above)']);
  });

  test('GIVEN workshop.expiresAt passed WHEN reap runs without --yes and without a terminal THEN it refuses before any destroy and searches nothing', async () => {
    config(PAST);
    expect(await reap([], deps())).toBe(1);
    expect(calls()).toEqual([]);
    expect(searched).toEqual([]);
    expect(err()).toEqual(['hoplab reap: not on a terminal; add --yes to reap without the question']);
    expect(readFileSync(annState(), 'utf8')).toBe(deployedState('ann'));
  });

  test('GIVEN its destroy fails WHEN reap --yes runs THEN the lab its tags find where its state was is said as a failed teardown, exit 1', async () => {
    config(PAST);
    writeFileSync(join(dir, 'fail'), 'ann-aws-cluster destroy\n');
    found[SLOT] = labFound('ann', 'reap-test', PAST).slice(0, 2);
    expect(await reap(['--yes'], deps())).toBe(1);
    expect(out().join('\n')).toMatch(/^ {2}FAILED ann-aws-cluster after \d+\.\d s:$/m);
    expect(out()).toContain('  EXPIRED ann (workshop reap-test) in aws host/us-east-1: expired');
    expect(out()).toContain('    2026-12-07T09:00:00Z; its teardown failed (above): fix the cause and run npx');
    expect(out().join('\n')).not.toContain('to delete it');
    expect(err().slice(-2)).toEqual(['hoplab reap: the teardown of ann failed; 1 expired lab still stands, about', '  $0.10/h (see above)']);
  });

  test('GIVEN a place it cannot look in WHEN reap runs THEN it says it could not look, never that something was found, and exits 1', async () => {
    config(AHEAD);
    found[SLOT] = new Error('connect ECONNREFUSED 127.0.0.1:9');
    expect(await reap(['--yes'], deps())).toBe(1);
    expect(out().slice(-2)).toEqual(["reap: searched hoplab's tags in 1 place: aws host/us-east-1", 'reap: could not look in aws host/us-east-1: connect ECONNREFUSED 127.0.0.1:9']);
    expect(out().join('\n')).not.toMatch(/NOT clean|EXPIRED/);
    expect(err()).toEqual(['hoplab reap: nothing expired found where it looked, but it could not look', '  everywhere (see above): not confirmed']);
  });

  test('GIVEN --format json WHEN reap --yes runs THEN stdout is the report alone (hoplab.reap/v1) and the progress goes to stderr', async () => {
    config(PAST);
    found[SLOT] = labFound('zed', 'old-workshop', '2026-11-02T18:00:00Z').slice(0, 2);
    expect(await reap(['--yes', '--format', 'json'], deps())).toBe(1);
    const report = JSON.parse(out().join('\n'));
    expect(report).toMatchObject({
      schema: 'hoplab.reap/v1',
      now: NOW.toISOString(),
      workshop: { name: 'reap-test', expiresAt: PAST, expired: true },
      teardown: { ran: true, environments: ['ann'], failed: [], leftovers: [], unchecked: [] },
      searched: [{ cloud: 'aws', place: SLOT }],
      clean: false,
    });
    expect(report.labs).toEqual([
      expect.objectContaining({ env: 'zed', workshop: 'old-workshop', status: 'no state here', expired: true, costPerHour: 0.1, slot: SLOT, expiresAt: '2026-11-02T18:00:00Z' }),
    ]);
    expect(report.labs[0].delete.map((s: { commands: string[] }) => s.commands).flat()).toContain('aws eks delete-cluster --name zed-eks --region us-east-1');
    expect(err()).toContain('  ann: aws host/us-east-1');
    expect(err().at(-1)).toBe('hoplab reap: 1 expired lab still stands, about $0.10/h (see above)');
  });

  test('GIVEN --format json without --yes WHEN something is to be torn down THEN it refuses: json never asks', async () => {
    config(PAST);
    expect(await reap(['--format', 'json'], deps())).toBe(1);
    expect(calls()).toEqual([]);
    expect(out()).toEqual([]);
    expect(err().at(-1)).toBe('hoplab reap: --format json asks nothing; add --yes to tear down (nothing destroyed)');
  });

  test('GIVEN --env naming another environment WHEN reap --yes runs THEN ann is not torn down and only that environment is reported', async () => {
    config(PAST);
    found[SLOT] = [...labFound('zed', 'old-workshop', PAST).slice(0, 1), ...labFound('bob', 'reap-test', AHEAD).slice(0, 1)];
    expect(await reap(['--yes', '--env', 'bob'], deps())).toBe(0);
    expect(calls()).toEqual([]);
    expect(out()).toContain('reap: nothing is deployed: none of the 1 stack (bob-aws-cluster) has state');
    expect(out().join('\n')).not.toContain('zed');
    expect(out().at(-1)).toBe('hoplab reap: nothing expired is left standing (1 lab not expired yet)');
  });

  test("GIVEN the pipeline's scheduled reaper WHEN its command line is read as reap's THEN it is reap with --yes (no question on a runner)", () => {
    const [npx, hoplab, name, ...args] = COMMANDS.reap.split(' ');
    expect([npx, hoplab, name]).toEqual(['npx', 'hoplab', 'reap']);
    expect(REAP_COMMAND.parse(args)).toEqual(expect.objectContaining({ yes: true, format: 'text' }));
  });

  test('GIVEN gcp.project left the placeholder WHEN reap runs on the real clouds THEN there is no GCP to tear down or search, said, and AWS is searched', async () => {
    delete process.env.HOPLAB_AWS_ENDPOINT;
    config(AHEAD);
    found[SLOT] = labFound('ann', 'reap-test', AHEAD).slice(0, 1);
    const gcp = jest.fn(async () => []);
    expect(await reap(['--yes'], { ...deps(), tagFinders: { ...deps().tagFinders, gcp } })).toBe(0);
    expect(out().slice(0, 2)).toEqual(['note: gcp.project is the placeholder "hoplab-demo" (no GCP lab): only AWS is', '  torn down and searched']);
    expect(searched.map((q) => q.slot.id)).toEqual([SLOT]);
    expect(gcp).not.toHaveBeenCalled();
    expect(out()).toContain("reap: searched hoplab's tags in 1 place: aws host/us-east-1");
  });
});

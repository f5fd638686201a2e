/**
 * An environment never moves once deployed: the lab is placed where its local
 * state files say, and a config change that would move a deployed environment
 * is a failing request problem of deploy, naming each environment, where its
 * state says it is, where the config would put it and how to keep it. Teardown
 * is not refused for it (it destroys where the state says); a state that says
 * not where refuses both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { readDeployedSlots } from '../../../lib/lab/files/deployed-slots';
import { EnvironmentNeeds, environmentNeeds } from '../../../lib/lab/estimate/environment-needs';
import { DeployedPlacement, placeWithState } from '../../../lib/lab/placement/deployed-placement';
import { formatRefusal, requestProblems } from '../../../lib/lab/selection/request-problems';
import { Direction, STACK_KINDS, StackKind } from '../../../lib/lab/selection/stack-graph';
import { placedAwsState, placedGcpState, tfState, writeState } from '../../support/tf-state';

const ROLE = 'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole';
const EAST2 = { slot: '111122223333/us-east-2', account: '111122223333', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'], role_arn: ROLE };
/** What the workshop was deployed with: ann and bob in account 111122223333's us-east-2, ann's GCP environment in acme-lab-1. */
const DEPLOYED_WITH = { attendees: ['ann', 'bob', 'cy'], aws: { accounts: [{ id: '111122223333' }], regions: ['us-east-2', 'us-west-2'] }, gcp: { project: 'acme-lab-1' } };

let cwd: string;
/** One environment's needs (the default lab's: every config here has its stacks), counted once: it synthesizes an environment. */
let needs: EnvironmentNeeds;
beforeAll(() => {
  needs = environmentNeeds(validConfig(DEPLOYED_WITH, 'test'));
  cwd = mkdtempSync(join(tmpdir(), 'hoplab-moves-'));
  writeState(join(cwd, 'terraform.ann-aws-cluster.tfstate'), placedAwsState(EAST2));
  writeState(join(cwd, 'terraform.bob-aws-cluster.tfstate'), placedAwsState(EAST2));
  writeState(join(cwd, 'terraform.ann-gcp-cluster.tfstate'), placedGcpState({ project: 'acme-lab-1', region: 'us-central1', zones: ['us-central1-a'] }));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The lab of `input` placed where the states in `dir` say. */
async function placed(input: Record<string, unknown>, dir = cwd): Promise<{ config: ReturnType<typeof validConfig>; deployed: DeployedPlacement }> {
  const config = validConfig({ allowWorldOpenEndpoints: true, ...input }, 'test');
  return { config, deployed: placeWithState(config, await readDeployedSlots(config, { cwd: dir }), { needs }) };
}

/** The refusal deploy (or teardown) prints for the request, or undefined when it may go ahead. */
async function refusal(input: Record<string, unknown>, options: { direction?: Direction; kinds?: StackKind[]; envs?: string[] } = {}): Promise<string | undefined> {
  const { config, deployed } = await placed(input);
  const direction = options.direction ?? 'deploy';
  const problems = requestProblems({ direction, kinds: options.kinds ?? [...STACK_KINDS], config, deployed, envs: options.envs });
  return problems.length === 0 ? undefined : formatRefusal(direction === 'deploy' ? 'deploy' : 'teardown', problems);
}

const TEAR_DOWN = (env: string) => `or tear it down first (npx hoplab teardown --env ${env} destroys it where its state says)`;
const MOVING = 'and moving it would recreate it there and leave the old one billing';

describe('a deployed environment stays where its state says', () => {
  test('GIVEN the config it was deployed with WHEN placed THEN each is where its state says, a new attendee fills the room, and deploy goes ahead', async () => {
    const { deployed } = await placed(DEPLOYED_WITH);
    expect(Object.fromEntries([...deployed.placement.aws.slotOf].map(([env, slot]) => [env, slot.id]))).toEqual({
      ann: '111122223333/us-east-2',
      bob: '111122223333/us-east-2',
      cy: '111122223333/us-east-2',
    });
    expect(await refusal(DEPLOYED_WITH)).toBeUndefined();
  });

  test('GIVEN the regions reordered WHEN deploy is asked for THEN nobody moves and it goes ahead', async () => {
    const reordered = { ...DEPLOYED_WITH, aws: { ...DEPLOYED_WITH.aws, regions: ['us-west-2', 'us-east-2'] } };
    const { deployed } = await placed(reordered);
    expect(deployed.placement.aws.slotOf.get('ann')?.id).toBe('111122223333/us-east-2');
    expect(deployed.placement.aws.slotOf.get('cy')?.id).toBe('111122223333/us-west-2');
    expect(await refusal(reordered)).toBeUndefined();
  });

  test('GIVEN a region removed WHEN deploy is asked for THEN it refuses, naming each environment, where it is, where it would go and how to keep it', async () => {
    expect(await refusal({ ...DEPLOYED_WITH, aws: { ...DEPLOYED_WITH.aws, regions: ['us-west-2'] } })).toBe(
      [
        'deploy refused before anything ran: 2 problems, fix all of them:',
        ...['ann', 'bob'].map(
          (env) =>
            `  - ${env}'s AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.${env}-aws-cluster.tfstate), but aws.regions no longer lists us-east-2: ` +
            `the config would put it in 111122223333/us-west-2, ${MOVING}; to keep it, add us-east-2 back to aws.regions, ${TEAR_DOWN(env)}`,
        ),
      ].join('\n'),
    );
  });

  test('GIVEN the account removed and the GCP project changed WHEN deploy of one environment is asked for THEN only its problems, both clouds', async () => {
    expect(await refusal({ ...DEPLOYED_WITH, aws: { accounts: [{ id: '444455556666' }], regions: ['us-east-2'] }, gcp: { project: 'acme-lab-2' } }, { envs: ['ann'] })).toBe(
      [
        'deploy refused before anything ran: 2 problems, fix all of them:',
        "  - ann's AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.ann-aws-cluster.tfstate), but aws.accounts no longer lists account 111122223333: " +
          `the config would put it in 444455556666/us-east-2, ${MOVING}; to keep it, add { "id": "111122223333", "roleName": "OrganizationAccountAccessRole" } back to aws.accounts, ${TEAR_DOWN(
            'ann',
          )}`,
        "  - ann's GCP environment is deployed in acme-lab-1/us-central1 (its state, terraform.ann-gcp-cluster.tfstate), but gcp.project is now acme-lab-2: " +
          `the config would put it in acme-lab-2/us-central1, ${MOVING}; to keep it, set gcp.project back to acme-lab-1, ${TEAR_DOWN('ann')}`,
      ].join('\n'),
    );
    // Only the stacks asked for: AWS alone.
    expect(await refusal({ ...DEPLOYED_WITH, gcp: { project: 'acme-lab-2' } }, { kinds: ['aws-cluster', 'aws-lb'] })).toBeUndefined();
  });

  test('GIVEN perSlot lowered below what is deployed WHEN deploy is asked for THEN the one past it is named, with the perSlot that keeps it', async () => {
    expect(await refusal({ ...DEPLOYED_WITH, placement: { perSlot: { aws: 1 } } })).toBe(
      "bob's AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.bob-aws-cluster.tfstate), but placement.perSlot 1 keeps ann there (2 are deployed there): " +
        `the config would put it in 111122223333/us-west-2, ${MOVING}; to keep it, set placement.perSlot to 2 (what is deployed there), ${TEAR_DOWN('bob')}`,
    );
  });

  test('GIVEN a pin to another region WHEN deploy is asked for THEN it says how to pin it where it is', async () => {
    const pinned = { ...DEPLOYED_WITH, attendees: [{ name: 'ann', placement: { aws: { region: 'us-west-2' } } }, 'bob', 'cy'] };
    expect(await refusal(pinned)).toBe(
      "ann's AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.ann-aws-cluster.tfstate), but attendees[0].placement.aws pins it to region us-west-2: " +
        `the config would put it in 111122223333/us-west-2, ${MOVING}; to keep it, pin it where it is (attendees[0].placement.aws: {"account":"111122223333","region":"us-east-2"}) or drop the pin, ${TEAR_DOWN(
          'ann',
        )}`,
    );
  });

  test('GIVEN a config without placement whose aws.region and gcp.region changed WHEN deploy is asked for THEN account and region are both said', async () => {
    expect(await refusal({ attendees: ['ann'], aws: { region: 'us-west-2' }, gcp: { project: 'acme-lab-1', region: 'us-east1' } })).toBe(
      [
        'deploy refused before anything ran: 2 problems, fix all of them:',
        "  - ann's AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.ann-aws-cluster.tfstate), but aws.accounts is not set (the host's own account), and it is in account 111122223333, " +
          `and aws.region is now us-west-2: the config would put it in host/us-west-2, ${MOVING}; to keep it, add { "id": "111122223333", "roleName": "OrganizationAccountAccessRole" } back to aws.accounts ` +
          `and set aws.region back to us-east-2, ${TEAR_DOWN('ann')}`,
        "  - ann's GCP environment is deployed in acme-lab-1/us-central1 (its state, terraform.ann-gcp-cluster.tfstate), but gcp.region is now us-east1: " +
          `the config would put it in acme-lab-1/us-east1, ${MOVING}; to keep it, set gcp.region back to us-central1, ${TEAR_DOWN('ann')}`,
      ].join('\n'),
    );
  });

  test('GIVEN a change that would move them WHEN teardown is asked for THEN it goes ahead, with each environment where its state says', async () => {
    const moved = { ...DEPLOYED_WITH, aws: { regions: ['eu-west-1'] }, gcp: { project: 'acme-lab-2' } };
    expect(await refusal(moved, { direction: 'destroy' })).toBeUndefined();
    const { deployed } = await placed(moved);
    expect(deployed.placement.aws.slotOf.get('ann')).toEqual({
      cloud: 'aws',
      id: '111122223333/us-east-2',
      account: { id: '111122223333', roleName: 'OrganizationAccountAccessRole', roleArn: ROLE },
      region: 'us-east-2',
      zones: ['us-east-2a', 'us-east-2b'],
    });
    expect(deployed.placement.aws.slotOf.get('cy')?.id).toBe('host/eu-west-1');
    expect(deployed.placement.gcp.slotOf.get('ann')?.id).toBe('acme-lab-1/us-central1');
  });

  test('GIVEN a state with resources that says not where WHEN deploy or teardown is asked for THEN both refuse, naming the state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-unread-'));
    try {
      writeState(join(dir, 'terraform.lab-aws-cluster.tfstate'), tfState({}, [['aws_iam_role', { arn: 'arn:aws:iam::444455556666:role/lab-eks-cluster' }]]));
      const { config, deployed } = await placed({}, dir);
      const expected =
        "cannot tell where lab's AWS environment is deployed: its state (lab-aws-cluster, terraform.lab-aws-cluster.tfstate) holds resources but names no region (no placement or region output, no regional ARN); " +
        'deploy and teardown act on an environment only where its state says it is: make the state readable (the backend, its credentials) and run it again';
      for (const direction of ['deploy', 'destroy'] as const) {
        expect(formatRefusal(direction, requestProblems({ direction, kinds: ['aws-cluster', 'aws-lb'], config, deployed }))).toBe(expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

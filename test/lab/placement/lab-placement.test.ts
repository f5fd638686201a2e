/**
 * A lab's placement from its config: the slots (accounts x regions,
 * projects x regions), their capacity from the quota table counted from one
 * environment's synthesized stacks (or placement.perSlot), and the problem when
 * the environments do not fit (the synthesized workshop: workshop.test.ts).
 */
import { validConfig } from '../../../lib/config/load';
import { ConfigError, formatProblem } from '../../../lib/config/problems';
import { placeLab } from '../../../lib/lab/placement/lab-placement';
import { attendeeNames, EIGHT_AWS_REGIONS, EIGHT_GCP_PROJECTS } from '../../support/placed-lab';

const layout = (raw: unknown) => {
  const placement = placeLab(validConfig(raw, 'test'));
  return {
    aws: placement.aws.bySlot.map((s) => `${s.slot.id}:${s.envs.length}`),
    gcp: placement.gcp.bySlot.map((s) => `${s.slot.id}:${s.envs.length}`),
    capacity: { aws: [placement.aws.capacity.perSlot, placement.aws.capacity.perGroup], gcp: [placement.gcp.capacity.perSlot, placement.gcp.capacity.perGroup] },
  };
};

const problems = (raw: unknown) => {
  try {
    placeLab(validConfig(raw, 'test'));
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map(formatProblem);
  }
};

const WORKSHOP = { attendees: attendeeNames(30), aws: { regions: EIGHT_AWS_REGIONS }, gcp: { projects: EIGHT_GCP_PROJECTS } };
const TWO_ACCOUNTS = {
  attendees: attendeeNames(30),
  aws: { accounts: [{ id: '111122223333' }, { id: '444455556666', roleName: 'HoplabDeployer' }], regions: EIGHT_AWS_REGIONS.slice(0, 4) },
  gcp: { projects: EIGHT_GCP_PROJECTS },
};

describe('the placement of a lab', () => {
  test('GIVEN no placement field WHEN placed THEN one slot per cloud holds every environment, without a limit (as before)', () => {
    expect(layout({ attendees: attendeeNames(30) })).toEqual({
      aws: ['host/us-east-1:30'],
      gcp: ['hoplab-demo/us-central1:30'],
      capacity: { aws: [undefined, undefined], gcp: [undefined, undefined] },
    });
    expect(placeLab(validConfig({}, 'test')).configured).toBe(false);
  });

  test('GIVEN 30 attendees, eight AWS regions and eight GCP projects WHEN placed THEN 4 per region (the default VPC counts) and 4 per project (the default network counts)', () => {
    expect(layout(WORKSHOP)).toEqual({
      aws: EIGHT_AWS_REGIONS.map((r, i) => `host/${r}:${i < 7 ? 4 : 2}`),
      gcp: EIGHT_GCP_PROJECTS.map((p, i) => `${p}/us-central1:${i < 7 ? 4 : 2}`),
      capacity: { aws: [4, undefined], gcp: [undefined, 4] },
    });
  });

  test('GIVEN two accounts x four regions WHEN placed THEN account-major: the first account fills its four regions, then the second', () => {
    const placement = placeLab(validConfig(TWO_ACCOUNTS, 'test'));
    expect(placement.aws.bySlot.map((s) => `${s.slot.id}:${s.envs.join(',')}`)).toEqual([
      '111122223333/us-east-1:a01,a02,a03,a04',
      '111122223333/us-east-2:a05,a06,a07,a08',
      '111122223333/us-west-1:a09,a10,a11,a12',
      '111122223333/us-west-2:a13,a14,a15,a16',
      '444455556666/us-east-1:a17,a18,a19,a20',
      '444455556666/us-east-2:a21,a22,a23,a24',
      '444455556666/us-west-1:a25,a26,a27,a28',
      '444455556666/us-west-2:a29,a30',
    ]);
    expect(placement.aws.slotOf.get('a30')?.account).toEqual({ id: '444455556666', roleName: 'HoplabDeployer', roleArn: 'arn:aws:iam::444455556666:role/HoplabDeployer' });
    expect(placement.aws.slotOf.get('a01')?.account?.roleArn).toBe('arn:aws:iam::111122223333:role/OrganizationAccountAccessRole');
  });

  test('GIVEN natGateways one-per-az WHEN placed THEN 2 per region: two Elastic IPs per environment against 5', () => {
    expect(layout({ attendees: attendeeNames(4), aws: { regions: ['us-east-1', 'us-east-2'], natGateways: 'one-per-az' } }).aws).toEqual(['host/us-east-1:2', 'host/us-east-2:2']);
  });

  test('GIVEN one project with two regions WHEN placed THEN the project holds 4 over both, the first region first', () => {
    expect(layout({ attendees: attendeeNames(4), gcp: { projects: ['lab-one-1'], regions: ['us-central1', 'us-east1'] } }).gcp).toEqual(['lab-one-1/us-central1:4', 'lab-one-1/us-east1:0']);
  });

  test('GIVEN placement.perSlot per cloud WHEN placed THEN each cloud takes its own, whatever the quotas say', () => {
    expect(
      layout({ attendees: attendeeNames(6), placement: { perSlot: { aws: 6, gcp: 3 } }, aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'] } }),
    ).toMatchObject({
      aws: ['host/us-east-1:6', 'host/us-east-2:0'],
      gcp: ['lab-one-1/us-central1:3', 'lab-two-2/us-central1:3'],
    });
  });

  test('GIVEN lists on AWS only WHEN placed THEN GCP keeps its one slot without a limit (notes say what is over a default there)', () => {
    expect(layout({ attendees: attendeeNames(10), aws: { regions: ['us-east-1', 'us-east-2', 'us-west-2'] } })).toMatchObject({
      gcp: ['hoplab-demo/us-central1:10'],
      capacity: { gcp: [undefined, undefined] },
    });
  });

  test('GIVEN a pin WHEN placed THEN it takes its slot before the others', () => {
    const placement = placeLab(
      validConfig(
        {
          attendees: [...attendeeNames(4), { name: 'zed', placement: { aws: { region: 'us-east-2' }, gcp: { project: 'lab-two-2' } } }],
          aws: { regions: ['us-east-1', 'us-east-2'] },
          gcp: { projects: ['lab-one-1', 'lab-two-2'] },
        },
        'test',
      ),
    );
    expect([placement.aws.slotOf.get('zed')?.id, placement.gcp.slotOf.get('zed')?.id, placement.aws.slotOf.get('a04')?.id]).toEqual(['host/us-east-2', 'lab-two-2/us-central1', 'host/us-east-1']);
  });

  test('GIVEN environments that do not fit WHEN placed THEN one problem per cloud says how many fit, how many are asked, which quotas bind, and the fix', () => {
    expect(problems({ attendees: attendeeNames(30), aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'], regions: ['us-central1', 'us-east1'] } })).toEqual([
      'aws.regions: ["us-east-1","us-east-2"] hold 8 of the 30 environments on AWS: 2 slots (1 account x 2 regions), 4 per slot by VPCs per Region (AWS\'s default 5, less 1 held by the default VPC of every region of a fresh account, 1 per environment) and Internet gateways per Region (AWS\'s default 5, less 1 held by the default VPC\'s internet gateway, 1 per environment); add regions to aws.regions or accounts to aws.accounts, or raise the quotas (Service Quotas vpc L-F678F1CE, Service Quotas vpc L-A4707A72) and set placement.perSlot',
      'gcp.projects: ["lab-one-1","lab-two-2"] hold 8 of the 30 environments on GCP: 4 slots (2 projects x 2 regions), 4 per project over its regions by VPC networks (NETWORKS) (Google Cloud\'s default 5, less 1 held by the "default" network of a new project, 1 per environment); add projects to gcp.projects (more regions do not help where the binding quota is per project), or raise the quota (NETWORKS) and set placement.perSlot',
    ]);
  });

  test('GIVEN one-per-az NAT gateways that do not fit WHEN placed THEN the Elastic IPs are named as what binds', () => {
    expect(problems({ attendees: attendeeNames(10), aws: { regions: ['us-east-1', 'us-east-2'], natGateways: 'one-per-az' } })).toEqual([
      'aws.regions: ["us-east-1","us-east-2"] hold 4 of the 10 environments on AWS: 2 slots (1 account x 2 regions), 2 per slot by EC2-VPC Elastic IPs (AWS\'s default 5, 2 per environment); add regions to aws.regions or accounts to aws.accounts, or raise the quota (Service Quotas ec2 L-0263D0A3) and set placement.perSlot',
    ]);
  });

  test('GIVEN placement.perSlot too low WHEN placed THEN the problem names it', () => {
    expect(
      problems({ attendees: attendeeNames(10), placement: { perSlot: 3 }, aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2', 'lab-three-3', 'lab-four-4'] } }),
    ).toEqual([
      'aws.regions: ["us-east-1","us-east-2"] hold 6 of the 10 environments on AWS: 2 slots (1 account x 2 regions) of placement.perSlot 3 each; add regions to aws.regions or accounts to aws.accounts, or raise the quotas and placement.perSlot',
    ]);
  });

  test('GIVEN more pins than their slot holds WHEN placed THEN the attendee whose pin has no room is named', () => {
    const pinned = (name: string) => ({ name, placement: { aws: { region: 'us-east-1' } } });
    expect(problems({ attendees: ['ann', pinned('zed'), pinned('zoe')], aws: { regions: ['us-east-1', 'us-east-2'] }, placement: { perSlot: { aws: 1 } } })).toEqual([
      'attendees[2].placement.aws: {"region":"us-east-1"} pins zoe to host/us-east-1, which is full (2 slots (1 account x 2 regions) of placement.perSlot 1 each) with the environments pinned there before it; pin it elsewhere, or raise the quotas and placement.perSlot',
    ]);
  });

  test('GIVEN a pin without lists on a cloud WHEN the environments do not fit the one slot THEN the unset list is named', () => {
    expect(problems({ attendees: [...attendeeNames(5), { name: 'pin', placement: { gcp: { region: 'us-central1' } } }] })).toEqual([
      'gcp.projects: (missing) is not set, so the slots hold 4 of the 6 environments on GCP: 1 slot (1 project x 1 region), 4 per project over its regions by VPC networks (NETWORKS) (Google Cloud\'s default 5, less 1 held by the "default" network of a new project, 1 per environment); add projects to gcp.projects (more regions do not help where the binding quota is per project), or raise the quota (NETWORKS) and set placement.perSlot',
    ]);
  });
});

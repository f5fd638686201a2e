/** `npm run preflight`'s command line. */
import { choiceFlag, defineCommand } from '../../kit/cli/command';
import { REPORT_FORMATS } from '../../lab/checks/finding';
import { myIpFlag } from '../../lab/probe/flags';
import { envsFlag, shardFlag, stacksFlag } from '../../lab/selection/flags';

export const PREFLIGHT_COMMAND = defineCommand({
  name: 'preflight',
  summary: 'everything that blocks a deploy, before any spend',
  description: `Checks before a deploy spends money, for the selected environments and stacks:
  request       every reason deploy refuses it: the placeholder gcp.project,
                world-open API endpoints, --shard on local state, a
                workshop.expiresAt that has passed (this machine's clock)
  tools         terraform 1.10+, the AWS CLI v2, gcloud and
                gke-gcloud-auth-plugin; provider sources (the registry; the
                filesystem mirror in emulator mode)
  host address  your public address (one request to checkip.amazonaws.com, or
                --my-ip) is inside aws.endpointPublicAccessCidrs and
                gcp.masterAuthorizedCidrs
  aws           who the deployer is (STS); not also in aws.clusterAdminArns; IAM
                policy simulation of every action the stacks need; quotas (VPCs,
                internet and NAT gateways, Elastic IPs, EKS clusters, ALBs,
                NLBs: Service Quotas, or AWS's documented defaults, said as
                such); cluster, role and policy names free
  gcp           who the ADC principal is; the APIs enabled (Service Usage);
                every permission the stacks need (projects.testIamPermissions);
                quotas (CPUS, IN_USE_ADDRESSES, BACKEND_SERVICES,
                FORWARDING_RULES); names free
  default quotas  every quota of the table (lib/model/quotas.ts) per slot,
                without credentials, against its documented default and what a
                fresh account or project holds (the credential checks read the
                slot of aws.region and gcp.project)

The permission, API and quota lists are derived from the synthesized stacks. When
the config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects,
placement), the report ends with where each goes (per slot: the binding quota and
the vCPUs its nodes need); the JSON form has it as "placement". With
HOPLAB_AWS_ENDPOINT set only the aws-cluster stacks are checked, against the emulator.`,
  flags: {
    env: envsFlag(),
    stacks: stacksFlag(),
    'my-ip': myIpFlag('your public address (skips the request to checkip.amazonaws.com)'),
    format: choiceFlag(REPORT_FORMATS, { default: 'table', description: 'the report (json: schema hoplab.preflight/v1)' }),
    shard: shardFlag(),
  },
  epilogue: 'Exit 0 when nothing blocks a deploy (warnings allowed), 1 when a check failed, 2 for a bad command line.',
});

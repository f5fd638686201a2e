/** `npm run preflight`'s command line. */
import { booleanFlag, choiceFlag, defineCommand } from '../../kit/cli/command';
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
  default quotas  without credentials, per slot: every quota of the table
                (lib/model/quotas.ts) against its documented default and what
                a fresh account or project holds, with the request that would
                raise one over it; the needs no default decides (AWS vCPUs,
                every GCP metric) listed per slot, for the checks below
  aws           per account (the host's, or the role it assumes in each of
                aws.accounts): who the deployer is (STS), not also in
                aws.clusterAdminArns, IAM policy simulation of every action the
                stacks need; per slot (account x region): its Availability
                Zones (DescribeAvailabilityZones, the authority over the zone
                table), quotas (VPCs, internet and NAT gateways, Elastic IPs,
                EKS clusters, ALBs, NLBs, On-Demand standard vCPUs: Service
                Quotas less what is in use), cluster, role and policy names
  gcp           per project: who the ADC principal is, the APIs enabled
                (Service Usage), every permission the stacks need
                (projects.testIamPermissions), every quota of the table
                (projects.get, and regions.get per region, which also lists
                its zones), names free
  quota requests  for every quota found short, the request to file, ready to
                paste (aws service-quotas request-service-quota-increase;
                gcloud beta quotas preferences create, or the console); the
                status of the requests --request-quotas filed before
                (.hoplab/quota-requests.json)

With --request-quotas, after the report, preflight files the requests once you
confirm: Service Quotas RequestServiceQuotaIncrease in each slot's region and
account (a request already open for a quota is shown, not filed again); Cloud
Quotas quota preferences in each project (an existing one for the quota is
updated, otherwise one is created; a quota whose ID no public source names is
found by its metric in the project's quota list; needs cloudquotas.googleapis.com
enabled, cloudquotas.quotas.get and .update, and a contact email: your Google
identity's).
Requests take hours to days: file them a week before the workshop.

The permission, API and quota lists are derived from the synthesized stacks. When
the config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects,
placement), the report ends with where each goes (per slot: the binding quota and
the vCPUs its nodes need); the JSON form has it as "placement", and the requests
as "quota_requests". With HOPLAB_AWS_ENDPOINT set only the aws-cluster stacks are
checked, against the emulator.`,
  flags: {
    env: envsFlag(),
    stacks: stacksFlag(),
    'my-ip': myIpFlag('your public address (skips the request to checkip.amazonaws.com)'),
    format: choiceFlag(REPORT_FORMATS, { default: 'table', description: 'the report (json: schema hoplab.preflight/v1)' }),
    shard: shardFlag(),
    'request-quotas': booleanFlag({ description: 'file a request for each quota found short, after a confirmation (see above)' }),
    yes: booleanFlag({ short: 'y', description: 'do not ask before filing (required when not on a terminal)' }),
  },
  epilogue: 'Exit 0 when nothing blocks a deploy (warnings allowed), 1 when a check failed or a request could not be filed, 2 for a bad command line.',
});

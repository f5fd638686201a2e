/** `npx hoplab progress`'s command line. */
import { choiceFlag, defineCommand, integerFlag } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { envsFlag } from '../../lab/selection/flags';

export const PROGRESS_FORMATS = ['table', 'json'] as const;

export const PROGRESS_COMMAND = defineCommand({
  name: 'progress',
  summary: "each attendee's handout exercises: done, not yet, or could not check",
  description: `Reads each attendee's clusters with the host's admin access (the Google credentials and AWS
credentials that deployed; on EKS a token made as aws eks get-token makes it) and shows, per
attendee, each exercise of their handout as done, not yet, could not check (why), or not
checkable. Every exercise whose result shows in the cluster's state is checked from the same facts
as its text: Deployment echo in namespace hoplab scaled to 1 and back (local-health-check),
nodeport-local's externalTrafficPolicy flipped to Cluster and back to Local (snat, where
nodeport-l4 is not deployed), a kubectl rollout restart rolled out with every Pod's load-balancer
readiness gate True (readiness-gates), a node cordoned or drained (drain: seen only while the node
is out). Exercises that change nothing in the cluster (requests, reading a node's rules, Hubble's
flows) are not checkable, never guessed. It changes nothing.`,
  flags: {
    outputs: outputsFlag('outputs as `npx cdktf output --outputs-file FILE` writes them (default: run npx cdktf output for the stacks in --dir)'),
    dir: synthDirFlag('synthesized app for that run'),
    env: envsFlag('only these environments (attendees)'),
    format: choiceFlag(PROGRESS_FORMATS, { default: 'table', description: 'table (fits 80 columns), or json (schema hoplab.progress/v1, below)' }),
    timeout: integerFlag({ min: 1, max: 300, value: 'SECONDS', default: 20, description: "bound of each request to a cluster's API" }),
  },
  epilogue: `The endpoints and CAs come from the cluster stacks' outputs (cluster_endpoint,
cluster_ca_certificate); this machine's address must be in the endpoint's allowed list
(aws.endpointPublicAccessCidrs, gcp.masterAuthorizedCidrs).

json: {"schema":"hoplab.progress/v1",checked_at,attendees:[{env,attendee,
  exercises:[{id,cloud,mode,status:done|not yet|could not check|not checkable,
  why}],why}]}. An attendee's why (exercises empty) says why none was looked at.

Exit codes: 0 every check ran; 1 outputs missing or unreadable, outputs of environments the config
does not name (said, with the ones they hold), or a cluster or exercise that could not be checked
(said in the report); 2 bad arguments.`,
});

/** `npm run handout`'s command line. */
import { booleanFlag, choiceFlag, defineCommand, integerFlag, stringFlag } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { envsFlag } from '../../lab/selection/flags';

export const HANDOUT_FORMATS = ['markdown', 'html', 'card'] as const;
export type HandoutFormat = (typeof HANDOUT_FORMATS)[number];

export const HANDOUT_COMMAND = defineCommand({
  name: 'handout',
  summary: 'Markdown, a self-contained page and an access card per attendee; an index',
  description: `Writes, for each attendee, a handout: OUT/<attendee>.md and OUT/<attendee>.html (one
self-contained page: no external URL, opens from disk, prints), an access card
OUT/<attendee>.card.html (one printed page, A4 or Letter: their URLs, kubectl working in two
lines, when the workshop ends), OUT/<attendee>.kubeconfig (mode 0600), and OUT/index.html
listing every attendee's files for the host. A handout has the attendee's identities; where each
of their clusters is (account or project, region) and how kubectl reaches it with their
kubeconfig; each exposure's URL, its path as a picture, a curl command and what the reply shows
(client_address, X-Forwarded-For) and why; and exercises (SNAT on a NodePort path, nodeport-local
health checks, readiness gates in a rollout, the extra hop, draining a node, the datapath seen
from a node through the read-only inspector's kubectl logs), each with what confirms it, a curl
loop the attendee runs to measure it, and the compare or watch command the host runs (marked
host only, as are the steps only the host can run).

The kubeconfig is written from the outputs (endpoint, CA): with the attendee's own identity
(aws eks get-token, gke-gcloud-auth-plugin: no IAM permission needed), or, for a cluster where
they have none, a token of their ServiceAccount minted now with the host's admin access
(TokenRequest). A file with a token is a secret: hand it to its attendee only; it is never put in
a page, a card or the index. Its expiry is the one the cluster answered (it may shorten the
lifetime asked); --refresh-kubeconfigs mints new tokens and rewrites only the kubeconfig files.`,
  flags: {
    outputs: outputsFlag('the outputs to write handouts from (default: run `npx cdktf output` for every stack in DIR, as compare does)'),
    measured: stringFlag({
      value: 'FILE',
      description: "the addresses a probe saw (the prober's own, the source the Pods saw, the Pod's node) in each exposure's journey, from `npx hoplab compare --probe --format json > FILE`",
    }),
    dir: synthDirFlag('the synthesized app: its plan draws the pictures; without it the config is synthesized in memory'),
    env: envsFlag("only these attendees' environments"),
    format: choiceFlag(HANDOUT_FORMATS, { defaultText: 'all three', description: 'write only this form (card: the one-page access card)' }),
    out: stringFlag({ value: 'DIR', default: 'handouts', description: 'where to write' }),
    'no-kubeconfigs': booleanFlag({ description: 'write no kubeconfig and mint no token (a pipeline, whose artifacts must never hold one)' }),
    'refresh-kubeconfigs': booleanFlag({ description: 'only mint new tokens and rewrite OUT/<attendee>.kubeconfig; the handouts and the index stay as they are' }),
    'token-hours': integerFlag({ min: 1, max: 48, value: 'HOURS', default: 12, description: 'the lifetime asked for each minted token (the cluster may shorten it)' }),
  },
  epilogue: `The identities come from the config (attendees[].aws, attendees[].gcp; see docs/attendees.md).
Exit codes: 0 written; 1 outputs missing or unreadable, no environment to write for, or a
kubeconfig that could not be written whole (the rest is written; the reason is printed); 2 bad
arguments.`,
});

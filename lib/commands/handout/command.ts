/** `npm run handout`'s command line. */
import { choiceFlag, defineCommand, stringFlag } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { envFlag } from '../../lab/selection/flags';

export const HANDOUT_FORMATS = ['markdown', 'html', 'card'] as const;
export type HandoutFormat = (typeof HANDOUT_FORMATS)[number];

export const HANDOUT_COMMAND = defineCommand({
  name: 'handout',
  summary: 'Markdown, a self-contained page and an access card per attendee; an index',
  description: `Writes, for each attendee, a handout: OUT/<attendee>.md and OUT/<attendee>.html (one
self-contained page: no external URL, opens from disk, prints), an access card
OUT/<attendee>.card.html (one printed page, A4 or Letter: their URLs, kubectl working in two
lines, when the workshop ends), and OUT/index.html listing every attendee's files for the host.
A handout has the attendee's identities; the kubeconfig command for each of their clusters with
that identity; each exposure's URL, its path as a picture, a curl command and what the reply
shows (client_address, X-Forwarded-For) and why; and exercises (SNAT on a NodePort path,
nodeport-local health checks, readiness gates in a rollout, the extra hop, draining a node, the
datapath seen from a node through the read-only inspector's kubectl logs), each with what
confirms it, a curl loop the attendee runs to measure it, and the compare or watch command the
host runs (marked host only, as are the steps only the host can run).`,
  flags: {
    outputs: outputsFlag('the outputs to write handouts from (default: run `npx cdktf output` for every stack in DIR, as compare does)'),
    dir: synthDirFlag('the synthesized app: its plan draws the pictures; without it the config is synthesized in memory'),
    env: envFlag("only this attendee's environment"),
    format: choiceFlag(HANDOUT_FORMATS, { defaultText: 'all three', description: 'write only this form (card: the one-page access card)' }),
    out: stringFlag({ value: 'DIR', default: 'handouts', description: 'where to write' }),
  },
  epilogue: `The identities come from the config (attendees[].aws, attendees[].gcp; see docs/attendees.md).
Exit codes: 0 written; 1 outputs missing or unreadable, or no environment to write for; 2 bad
arguments.`,
});

/** `npm run synth`'s command line (the app, bin/hoplab.ts; `npx hoplab synth`). */
import { defineCommand } from '../../kit/cli/command';

export const SYNTH_COMMAND = defineCommand({
  name: 'synth',
  summary: 'validate the config and synthesize every stack into cdktf.out/stacks',
  description: `Validates the lab config (HOPLAB_CONFIG, or hoplab.config.json/.yaml here, else the
defaults) and synthesizes every stack of every environment into cdktf.out/stacks. A bad config
prints one line per problem, exits 1 and writes nothing. Notes (stderr) a workshop.expiresAt that
has passed (deploy refuses it), and each cloud quota the
environments of a slot exceed at its documented default (a default limit, not your account's:
npx hoplab preflight reads your own), with their EC2 vCPU need. When the config places
environments (aws.regions, aws.accounts, gcp.regions, gcp.projects, placement), prints where each
went: per slot its environments, the quota that binds it and the vCPUs its nodes need.`,
  flags: {},
  environment: [
    ['HOPLAB_CONFIG', 'lab config file (default: ./hoplab.config.json or .yaml, else defaults)'],
    ['CDKTF_OUTDIR', 'where to write instead of cdktf.out (cdktf sets it)'],
  ],
});

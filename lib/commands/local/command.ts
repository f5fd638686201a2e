/** `npm run local`'s command line. */
import { defineCommand } from '../../kit/cli/command';

export const LOCAL_COMMAND = defineCommand({
  name: 'local',
  summary: 'the embedded default: a real Terraform deploy to a local AWS emulator, then destroy',
  description: `Deploys the <env>-aws-cluster stack to a local AWS emulator (moto on loopback) with
real Terraform, prints its outputs, checks a re-plan is empty, destroys it and checks that nothing
of the environment is left. Exit code 0 only if all of that worked.`,
  flags: {},
  environment: [
    ['HOPLAB_CONFIG', 'lab config file (default: ./hoplab.config.json or .yaml, else defaults)'],
    ['HOPLAB_AWS_ENDPOINT', 'use this running emulator (left running) instead of starting moto'],
    ['HOPLAB_PROVIDER_MIRROR', 'filesystem provider mirror holding hashicorp/aws 5.100.0'],
    ['HOPLAB_KEEP_WORKDIR=1', 'keep the synthesized stack, state and terraform.log'],
  ],
});

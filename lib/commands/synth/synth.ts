/**
 * The hoplab app: validates the lab config, then synthesizes every stack into
 * cdktf.out (or $CDKTF_OUTDIR, as `cdktf` sets it). A bad config prints one
 * line per problem, exits 1 and writes nothing.
 */
import { App } from 'cdktf';
import { SYNTH_COMMAND } from './command';
import { readLabConfig } from '../../lab/files/config-file';
import { synthFresh } from '../../stacks/hoplab-app';
import { defaultLimitNotes, exposuresOfOutputs, labQuotaNeeds } from '../../lab/estimate/quotas';
import { countedNeeds, formatPlacement, placementReport } from '../../lab/placement/placement-report';
import { terminalWidth } from '../../kit/terminal/terminal';
import { addPlacedLab } from '../../lab/placement/placed-lab';
import { slotEnvironments } from '../../lab/placement/lab-placement';
import { deployedPlacementProblems, placeWithState } from '../../lab/placement/deployed-placement';
import { readDeployedSlots } from '../../lab/files/deployed-slots';
import { readSynthDir } from '../../lab/files/synth-dir';
import { expiryNote } from '../../lab/selection/expiry-problem';
import { SYSTEM_WALL_CLOCK, WallClock } from '../../kit/cli/wall-clock';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. `clock`: the date it runs on (tests). */
export async function synth(argv: readonly string[], clock: WallClock = SYSTEM_WALL_CLOCK): Promise<number> {
  if (!SYNTH_COMMAND.parse(argv)) return 0;
  const now = clock.now();
  const loaded = readLabConfig({ now });
  for (const note of loaded.notes) console.error(`hoplab: note: ${note}`);
  // Synthesized all the same (the stacks are what they are); deploy is what refuses it.
  const expired = expiryNote(loaded.config, now);
  if (expired) console.error(`hoplab: note: ${expired}`);
  // Placed before anything is written (environments that do not fit are a config problem), deployed ones where their
  // local state says (synth runs no Terraform, so a remote state is not read: deploy and teardown read it).
  const placed = placeWithState(loaded.config, await readDeployedSlots(loaded.config, { cwd: process.cwd(), remote: false }), { source: loaded.source });
  const placement = placed.placement;
  for (const problem of deployedPlacementProblems(loaded.config, placed, { moves: true, clouds: ['aws', 'gcp'] })) {
    console.error(`hoplab: note: ${problem.detail}; deploy refuses this: ${problem.fix}`);
  }
  if (placement.configured && placed.state.notRead.length > 0) {
    console.error(
      `hoplab: note: the state is in a ${loaded.config.backend.type} backend, which synth does not read: deployed environments are shown where the config places them; deploy and teardown read where they are`,
    );
  }
  // No stack traces in construct metadata: they cost a third of synth time and nobody reads them in cdk.tf.json.
  const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? 'cdktf.out', stackTraces: false });
  const environments = addPlacedLab(app, loaded.config, { placement }).stacks;
  synthFresh(app);
  // Counted from the stacks just written, per slot: no credentials, the same table preflight uses.
  const synthesized = readSynthDir(app.outdir);
  for (const note of defaultLimitNotes(synthesized, slotEnvironments(placement))) console.error(`hoplab: note: ${note}`);
  if (process.env.CDKTF_OUTDIR === undefined) {
    const envs = environments.map((e) => e.env);
    const which = envs.length === 1 ? `"${envs[0]}"` : `${envs.length} environments`;
    console.log(`hoplab: synthesized ${envs.length * 4} stacks for ${which} (config: ${loaded.source}) into cdktf.out/stacks`);
    // Where each environment went, when the config places them (nothing new otherwise).
    if (placement.configured) {
      const needs = countedNeeds(labQuotaNeeds(synthesized, exposuresOfOutputs(synthesized), slotEnvironments(placement)));
      for (const line of formatPlacement(placementReport(placement, needs), placement.envs, terminalWidth(process.stdout))) console.log(line);
    }
  }
  return 0;
}

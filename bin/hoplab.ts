/**
 * The hoplab app: validates the lab config, then synthesizes every stack into
 * cdktf.out (or $CDKTF_OUTDIR, as `cdktf` sets it). A bad config prints one
 * line per problem, exits 1 and writes nothing.
 */
import { runCli } from '../lib/kit/cli/cli';
import { SYNTH_COMMAND } from '../lib/commands/synth/command';
import { synth } from '../lib/commands/synth/synth';

runCli(SYNTH_COMMAND, () => synth(process.argv.slice(2)));

/** The flags that name the lab's files (`--outputs FILE`, `--dir DIR`), defined once: every command reads them the same way. */
import { stringFlag } from '../../kit/cli/command';

/** Every file hoplab writes that holds outputs: each command that reads outputs takes any of them. */
export const OUTPUT_FILE_KINDS = 'what `npx cdktf output --outputs-file FILE` writes, `npx hoplab compare --format json > FILE`, or the hoplab-compare.json of `npx hoplab pipeline --gather`';

/** `--outputs FILE`: any of {@link OUTPUT_FILE_KINDS}; `description` says what the command takes them for, and its default. */
export const outputsFlag = (description: string) => stringFlag({ value: 'FILE', description: `${description}; FILE is ${OUTPUT_FILE_KINDS}` });

/** `--dir DIR`: the synthesized app, `cdktf.out` when not given. */
export const synthDirFlag = (description: string) => stringFlag({ value: 'DIR', default: 'cdktf.out', description });

/** The flags that name the lab's files (`--outputs FILE`, `--dir DIR`), defined once: every command reads them the same way. */
import { stringFlag } from '../../kit/cli/command';

/** `--outputs FILE`: outputs as `npx cdktf output --outputs-file FILE` writes them. */
export const outputsFlag = (description: string) => stringFlag({ value: 'FILE', description });

/** `--dir DIR`: the synthesized app, `cdktf.out` when not given. */
export const synthDirFlag = (description: string) => stringFlag({ value: 'DIR', default: 'cdktf.out', description });

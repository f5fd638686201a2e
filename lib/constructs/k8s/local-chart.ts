import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { ISynthesisSession, Manifest, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';

/**
 * The folder of a cdktf output directory that holds one copy of each local
 * chart its stacks use, `<outdir>/charts/<name>-<hash>/`, next to `stacks/`.
 */
export const LOCAL_CHARTS_FOLDER = 'charts';

/**
 * The directory of a chart that ships with hoplab (`charts/<name>`), found
 * from this module's location: `lib/constructs/k8s/` when run from source (tests),
 * `dist/` when bundled.
 */
export function localChartDir(name: string): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'charts', name);
    if (existsSync(join(candidate, 'Chart.yaml'))) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`hoplab: the chart "charts/${name}" was not found above ${__dirname}; run hoplab from its checkout`);
    }
    dir = parent;
  }
}

const chartHashes = new Map<string, string>();

/**
 * The content hash of a local chart directory: MD5 of every file's bytes,
 * walked in directory order, 32 upper-case hex digits (the hash cdktf's
 * `TerraformAsset` computes, so the hash part of the path did not change when
 * the charts stopped being per-stack assets). Once per process and chart: the
 * memo lives as long as the process, one synth; a chart edited meanwhile is
 * seen by the next run.
 */
export function localChartHash(dir: string): string {
  const key = resolve(dir);
  let hash = chartHashes.get(key);
  if (hash === undefined) {
    const md5 = createHash('md5');
    const walk = (path: string): void => {
      const stat = statSync(path);
      if (stat.isFile()) {
        md5.update(readFileSync(path));
      } else if (stat.isDirectory()) {
        for (const name of readdirSync(path)) walk(resolve(path, name));
      }
    };
    walk(key);
    hash = md5.digest('hex').slice(0, 32).toUpperCase();
    chartHashes.set(key, hash);
  }
  return hash;
}

/** What the stack synthesizer wrapper writes for one stack: chart folder name -> source directory. */
const chartsByStack = new WeakMap<TerraformStack, Map<string, string>>();
/** The chart folders already written in one synthesis (one `app.synth()`, or one `Testing.fullSynth`). */
const writtenBySession = new WeakMap<ISynthesisSession, Set<string>>();

export interface LocalChartProps {
  /** The chart's name (required): its folder in `charts/`, and the start of its copy's folder name. */
  readonly name: string;
  /**
   * The chart's directory.
   * @default - `charts/<name>` of the checkout ({@link localChartDir})
   */
  readonly dir?: string;
}

/**
 * A chart that ships with hoplab (`charts/<name>`), for a `helm_release` in
 * this construct's stack: {@link chart} is the value for the release's `chart`.
 *
 * The synth writes each chart once into the output directory,
 * `<outdir>/charts/<name>-<hash>/`, however many stacks use it (a per-stack
 * `TerraformAsset` copied the 1.2 MB Gateway API CRD chart into every
 * `-aws-lb` stack: 100 attendees wrote 131 MB for 11 MB of Terraform JSON),
 * and {@link chart} is that folder relative to the stack's folder,
 * `../../charts/<name>-<hash>` from `<outdir>/stacks/<stack>/`.
 *
 * Why a relative path works: the helm provider passes `chart` to Helm's
 * `ChartPathOptions.LocateChart` (hashicorp/terraform-provider-helm v3.1.1,
 * `helm/resource_helm_release.go`, `getChart`), which looks a name up
 * "relative to current working directory" (helm.sh/helm/v3
 * `pkg/action/install.go`: `os.Stat(name)`, then `filepath.Abs`), at plan
 * and at apply. A provider runs in Terraform's working directory (seen here:
 * under `terraform -chdir=<dir>` the provider process's cwd is `<dir>`), and
 * that is the stack's folder in every way hoplab's stacks are run: `cdktf
 * deploy` runs Terraform with cwd `<outdir>/stacks/<stack>`, so do hoplab's
 * deploy and teardown (`StackRunner`) and verify's drift plan, and so does
 * `terraform -chdir=<outdir>/stacks/<stack>` (the old `./assets/...` paths
 * relied on the same). So a stack folder is not self-contained: copy the
 * whole output directory, `stacks/` and `charts/`.
 *
 * The hash keeps a changed chart visible to Terraform: the `chart` value
 * changes, so the release is upgraded (without its `manifest` experiment
 * the provider does not compare a local chart's files).
 */
export class LocalChart extends Construct {
  /** The value for `helm_release.chart`: the written copy, relative to the stack's folder. */
  public readonly chart: string;
  /** The copy's folder name in {@link LOCAL_CHARTS_FOLDER}: `<name>-<hash>`. */
  public readonly folder: string;
  /** The chart's directory in the checkout. */
  public readonly sourceDir: string;

  constructor(scope: Construct, id: string, props: LocalChartProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.name)) {
      throw new Error(`LocalChart ${id}: name "${props.name}" is not a chart name; use lower-case letters, digits and dashes`);
    }
    this.sourceDir = resolve(props.dir ?? localChartDir(props.name));
    this.folder = `${props.name}-${localChartHash(this.sourceDir)}`;
    this.chart = chartFromStack(this.folder);
    chartsOf(TerraformStack.of(this)).set(this.folder, this.sourceDir);
  }
}

/**
 * Where a chart copy is seen from a stack's folder: cdktf puts each stack in
 * `<outdir>/stacks/<stack>/` (`Manifest.stacksFolder`); checked again where
 * the copy is written.
 */
function chartFromStack(folder: string): string {
  return posix.relative(posix.join(Manifest.stacksFolder, 'stack'), posix.join(LOCAL_CHARTS_FOLDER, folder));
}

/**
 * The charts a stack uses. The first one wraps the stack's synthesizer (a
 * public property) so that synthesizing the stack, in an app or alone
 * (`Testing.fullSynth`), also writes them.
 */
function chartsOf(stack: TerraformStack): Map<string, string> {
  let charts = chartsByStack.get(stack);
  if (charts === undefined) {
    const found = new Map<string, string>();
    charts = found;
    chartsByStack.set(stack, found);
    const inner = stack.synthesizer;
    stack.synthesizer = {
      synthesize(session: ISynthesisSession): void {
        inner.synthesize(session);
        writeCharts(session, stack, found);
      },
    };
  }
  return charts;
}

function writeCharts(session: ISynthesisSession, stack: TerraformStack, charts: ReadonlyMap<string, string>): void {
  let written = writtenBySession.get(session);
  if (written === undefined) {
    written = new Set();
    writtenBySession.set(session, written);
  }
  const stackDir = join(session.outdir, session.manifest.forStack(stack).workingDirectory);
  for (const [folder, sourceDir] of charts) {
    const target = join(session.outdir, LOCAL_CHARTS_FOLDER, folder);
    const fromStack = relative(stackDir, target).split(sep).join('/');
    if (fromStack !== chartFromStack(folder)) {
      throw new Error(`hoplab: stack ${stack.node.id} is synthesized into ${stackDir}, from where its chart ${folder} is at ${fromStack}, not where its helm_release points`);
    }
    if (written.has(target)) continue;
    // A fresh copy each synth (1.2 MB at most, once), put in place whole.
    const temporary = `${target}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    cpSync(sourceDir, temporary, { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(temporary, target);
    written.add(target);
  }
}

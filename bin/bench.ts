/**
 * `npm run bench`: synth wall time and peak memory of the bundled app
 * (dist/hoplab.js, built by `npm run build`), over repeated runs, against the
 * targets in BENCH_CASES. Prints a table; exits 1 if a case misses its target.
 *
 * usage: npm run bench [-- --runs N] [-- --json]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

interface BenchCase {
  readonly name: string;
  /** Lab config to synthesize (undefined: the defaults). */
  readonly config?: Record<string, unknown>;
  /** Stacks the synth must produce. */
  readonly stacks: number;
  readonly maxSeconds: number;
  readonly maxMiB: number;
}

/** Stacks of one environment: aws-cluster, aws-lb, gcp-cluster, gcp-lb. */
const STACKS_PER_ENV = 4;

const attendees = (count: number) => ({ attendees: Array.from({ length: count }, (_, i) => `attendee-${String(i + 1).padStart(2, '0')}`) });

/** Targets: issue 2 (default lab < 0.5 s, < 200 MiB) and issue 6 (30 attendees well under 10 s, growing linearly). */
const BENCH_CASES: readonly BenchCase[] = [
  { name: 'default lab', stacks: STACKS_PER_ENV, maxSeconds: 0.5, maxMiB: 200 },
  { name: '10 attendees', config: attendees(10), stacks: 10 * STACKS_PER_ENV, maxSeconds: 3, maxMiB: 600 },
  { name: '30 attendees', config: attendees(30), stacks: 30 * STACKS_PER_ENV, maxSeconds: 5, maxMiB: 1200 },
];

interface Run {
  readonly seconds: number;
  readonly peakMiB: number;
  readonly stacks: number;
}

function runOnce(app: string, preload: string, benchCase: BenchCase): Run {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-bench-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, CDKTF_OUTDIR: join(dir, 'out') };
    delete env.HOPLAB_CONFIG;
    if (benchCase.config) {
      env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
      writeFileSync(env.HOPLAB_CONFIG, JSON.stringify(benchCase.config));
    }
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, ['--require', preload, app], { cwd: dir, env, encoding: 'utf8' });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.status !== 0) {
      throw new Error(`synth failed (${result.status}): ${result.stderr}`);
    }
    const rss = /\{"hoplabPeakRssKiB":(\d+)\}/.exec(result.stderr);
    const stacks = readdirSync(join(dir, 'out', 'stacks')).length;
    return { seconds, peakMiB: rss ? Number(rss[1]) / 1024 : NaN, stacks };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(): number {
  let values;
  try {
    values = parseArgs({ options: { runs: { type: 'string', default: '5' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } }).values;
  } catch (error) {
    console.error(`hoplab bench: ${error instanceof Error ? error.message : String(error)} (see --help)`);
    return 2;
  }
  if (values.help) {
    console.log('usage: npm run bench -- [--runs N] [--json]\n\nTimes whole synth processes of dist/hoplab.js (median of N runs, default 5) and their peak memory\nfor the default lab, 10 and 30 attendees, against the targets; exits 1 if one is missed.');
    return 0;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
    console.error(`hoplab bench: --runs ${JSON.stringify(values.runs)} is not a whole number from 1 to 50 (see --help)`);
    return 2;
  }
  const app = resolve('dist/hoplab.js');
  const preload = resolve('scripts/report-peak-rss.cjs');
  const results = BENCH_CASES.map((benchCase) => {
    runOnce(app, preload, benchCase); // warm the file cache
    const samples = Array.from({ length: runs }, () => runOnce(app, preload, benchCase));
    const seconds = median(samples.map((s) => s.seconds));
    const peakMiB = Math.max(...samples.map((s) => s.peakMiB));
    const stacks = samples[0].stacks;
    const ok = seconds <= benchCase.maxSeconds && peakMiB <= benchCase.maxMiB && stacks === benchCase.stacks;
    return { case: benchCase.name, stacks, runs, medianSeconds: Number(seconds.toFixed(3)), maxSeconds: benchCase.maxSeconds, peakMiB: Number(peakMiB.toFixed(1)), maxMiB: benchCase.maxMiB, ok };
  });
  const ten = results.find((r) => r.case === '10 attendees');
  const thirty = results.find((r) => r.case === '30 attendees');
  const growth = ten && thirty ? Number((thirty.medianSeconds / ten.medianSeconds).toFixed(2)) : undefined;
  if (values.json) {
    console.log(JSON.stringify({ results, growth10to30: growth }, null, 2));
  } else {
    console.log(`hoplab bench: node ${process.version}, ${runs} runs per case (median wall time of a whole synth process, peak RSS)`);
    for (const r of results) {
      console.log(
        `  ${r.ok ? 'ok  ' : 'MISS'} ${r.case.padEnd(14)} ${String(r.stacks).padStart(4)} stacks  ${r.medianSeconds.toFixed(3)} s (target < ${r.maxSeconds} s)  ` +
          `${r.peakMiB.toFixed(0)} MiB (target < ${r.maxMiB} MiB)  ${((r.medianSeconds * 1000) / r.stacks).toFixed(1)} ms/stack`,
      );
    }
    if (growth !== undefined) {
      console.log(`  growth 10 -> 30 attendees: x${growth} time for x3 stacks (linear: about 3, less because start-up is shared)`);
    }
  }
  return results.every((r) => r.ok) ? 0 : 1;
}

process.exit(main());

/**
 * `npx cdktf synth` works after the environments change: cdktf-cli lists the
 * stack folders before it runs the app and deletes, after it, the ones the
 * new manifest does not name, without `force`; synthFresh must leave those to
 * it. A real `cdktf synth` (this repository's cdktf-cli and scripts/run.cjs)
 * in a scratch folder with its own config, twice, the attendees changed in
 * between; and synthFresh alone, as cdktf-cli and as npm run synth run it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { addLab, synthesizedForCdktfCli, synthFresh } from '../../lib/stacks/hoplab-app';

const ROOT = resolve(__dirname, '..', '..');
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};

/** Runs `cdktf <args>` in `cwd` without blocking the worker; resolves with its exit code and output. */
function cdktf(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'cdktf'), args, { cwd, env: { ...process.env, CHECKPOINT_DISABLE: '1', CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, out }));
  });
}

const stacksOf = (outdir: string) => readdirSync(join(outdir, 'stacks')).sort();

describe('npx cdktf synth after the attendee list changes', () => {
  test('GIVEN a project synthesized for the default lab WHEN the attendees change and cdktf synth runs again THEN it succeeds the first time and only the new stacks remain', async () => {
    const dir = tempDir('hoplab-cdktf-synth-');
    writeFileSync(
      join(dir, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: `node ${join(ROOT, 'scripts', 'run.cjs')} hoplab`, sendCrashReports: 'false', terraformProviders: [], terraformModules: [], context: {} }),
    );
    writeFileSync(join(dir, 'hoplab.config.json'), '{}');
    const first = await cdktf(['synth'], dir);
    expect({ code: first.code, out: first.code === 0 ? '' : first.out }).toEqual({ code: 0, out: '' });
    expect(stacksOf(join(dir, 'cdktf.out'))).toEqual(['lab-aws-cluster', 'lab-aws-lb', 'lab-gcp-cluster', 'lab-gcp-lb']);

    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ attendees: ['ann', 'bob'] }));
    const second = await cdktf(['synth'], dir);
    expect(second.out).not.toContain('ENOENT');
    expect({ code: second.code, out: second.code === 0 ? '' : second.out }).toEqual({ code: 0, out: '' });
    expect(stacksOf(join(dir, 'cdktf.out'))).toEqual(['ann-aws-cluster', 'ann-aws-lb', 'ann-gcp-cluster', 'ann-gcp-lb', 'bob-aws-cluster', 'bob-aws-lb', 'bob-gcp-cluster', 'bob-gcp-lb']);
  });
});

describe('synthFresh', () => {
  /** An outdir holding the folder of a stack an earlier config had (`gone-aws-cluster`) and a stale file in one this config has. */
  const earlier = () => {
    const outdir = tempDir('hoplab-fresh-');
    mkdirSync(join(outdir, 'stacks', 'gone-aws-cluster'), { recursive: true });
    mkdirSync(join(outdir, 'stacks', 'lab-aws-cluster'), { recursive: true });
    writeFileSync(join(outdir, 'stacks', 'lab-aws-cluster', 'stale.txt'), 'from an earlier synth');
    return outdir;
  };
  const synth = (outdir: string, env: NodeJS.ProcessEnv) => {
    const app = new App({ outdir, stackTraces: false });
    addLab(app, validConfig({}, 'test'));
    synthFresh(app, env);
  };

  test('GIVEN npm run synth (no CDKTF_OUTDIR) WHEN synthesized THEN the old stack folders are gone and the current ones fresh', () => {
    const outdir = earlier();
    synth(outdir, {});
    expect(stacksOf(outdir)).toEqual(['lab-aws-cluster', 'lab-aws-lb', 'lab-gcp-cluster', 'lab-gcp-lb']);
    expect(existsSync(join(outdir, 'stacks', 'lab-aws-cluster', 'stale.txt'))).toBe(false);
  });

  test('GIVEN cdktf-cli running the app for this outdir WHEN synthesized THEN the current stack folders are fresh and the old one is left for cdktf-cli to delete', () => {
    const outdir = earlier();
    synth(outdir, { CDKTF_OUTDIR: outdir });
    expect(stacksOf(outdir)).toEqual(['gone-aws-cluster', 'lab-aws-cluster', 'lab-aws-lb', 'lab-gcp-cluster', 'lab-gcp-lb']);
    expect(existsSync(join(outdir, 'stacks', 'lab-aws-cluster', 'stale.txt'))).toBe(false);
  });

  test('GIVEN CDKTF_OUTDIR naming another directory WHEN asked THEN this outdir is not synthesized for cdktf-cli', () => {
    expect(synthesizedForCdktfCli('/a/cdktf.out', { CDKTF_OUTDIR: '/b/cdktf.out' })).toBe(false);
    expect(synthesizedForCdktfCli('cdktf.out', { CDKTF_OUTDIR: resolve('cdktf.out') })).toBe(true);
    expect(synthesizedForCdktfCli('cdktf.out', {})).toBe(false);
  });
});

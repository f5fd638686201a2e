import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { formatGathered, gatherOutputs } from '../../../lib/commands/pipeline/gather';
import { githubActionsWorkflows } from '../../../lib/commands/pipeline/github-actions';
import { gitlabPipeline } from '../../../lib/commands/pipeline/gitlab-ci';
import { PipelineInput } from '../../../lib/commands/pipeline/jobs';
import { reapCrons } from '../../../lib/commands/pipeline/reaper';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

function validator(schemaFile: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(fixture(schemaFile));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const input = (over: Partial<PipelineInput> = {}): PipelineInput => ({
  shards: 10,
  expiresAt: '2026-12-30T22:00:00Z',
  verify: { run: true },
  jobMinutes: 120,
  reapMinutes: 180,
  canary: { env: 'ann', minutes: 60 },
  branch: 'main',
  ...over,
});
const NARROWED = { run: false, why: 'app.allowedSourceCidrs admits only 198.51.100.0/24: a CI runner is outside it' } as const;

/** ISO 8601 UTC, to the second, `hours` from now. */
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Runs a generated shell script with bash; `env` on top of this process's. */
function bash(script: string, env: Record<string, string>) {
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, out: result.stdout };
}

/**
 * Runs a GitLab job's script lines in `dir` as the runner's bash does (`set -o pipefail`, `set -o errexit`, then the
 * lines: gitlab-runner's shells/bash.go), with `npm` and `npx` replaced by stubs that log their arguments to `log` and
 * succeed, except that npx fails (exit 1) when its arguments match `failOn` (a grep pattern): the clouds are not here.
 */
function gitlabJob(lines: readonly string[], dir: string, log: string, failOn = '') {
  const bin = mkdtempSync(join(tmpdir(), 'hoplab-stubs-'));
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm $*" >> "$STUB_LOG"\n', { mode: 0o755 });
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\necho "npx $*" >> "$STUB_LOG"\nif [ -n "$FAIL_ON" ] && echo "$*" | grep -q -- "$FAIL_ON"; then exit 1; fi\n', { mode: 0o755 });
  const result = spawnSync('bash', ['-c', ['set -o pipefail', 'set -o errexit', ...lines].join('\n')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, STUB_LOG: log, FAIL_ON: failOn },
  });
  return { status: result.status, out: result.stdout };
}

/** Every upload-artifact step of a workflow, with its paths one a line. */
const uploads = (doc: Doc) =>
  Object.values(doc.jobs).flatMap((job: Doc) =>
    job.steps.filter((s: Doc) => String(s.uses).startsWith('actions/upload-artifact@')).map((s: Doc) => ({ name: s.with.name, paths: String(s.with.path).split('\n') })),
  );

describe('GitHub Actions workflows', () => {
  const files = githubActionsWorkflows(input());
  const [deploy, teardown, reap] = files.map((f) => parse(f.text) as Doc);
  const validate = validator('github-workflow.schema.json');
  const credentialSteps = (job: Doc) => job.steps.filter((s: Doc) => /configure-aws-credentials|google-github-actions\/auth/.test(String(s.uses)));

  test('GIVEN 10 shards WHEN generated THEN the three files are valid workflows by the SchemaStore schema, with no YAML aliases', () => {
    expect(files.map((f) => f.path)).toEqual(['.github/workflows/hoplab-deploy.yml', '.github/workflows/hoplab-teardown.yml', '.github/workflows/hoplab-reap.yml']);
    for (const doc of [deploy, teardown, reap]) {
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
    for (const file of files) expect(file.text).not.toMatch(/^\s*-?\s*[&*]a\d/m);
  });

  test('GIVEN the schema WHEN a broken workflow is checked THEN it fails (the validator is not a rubber stamp)', () => {
    expect(validate({ ...deploy, jobs: { deploy: { ...deploy.jobs.deploy, 'runs-on': undefined, steps: 'npm ci' } } })).toBe(false);
    expect(validate({ ...deploy, permissions: { 'id-token': 'always' } })).toBe(false);
    expect(validate({ ...teardown, on: { workflow_dispatch: { inputs: { workshop: { required: 'yes' } } } } })).toBe(false);
  });

  test('GIVEN the deploy workflow THEN a matrix job per shard checks the expiry before its credentials, federates to both clouds, deploys, keeps its outputs and verifies', () => {
    expect(deploy.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const job = deploy.jobs.deploy;
    expect(job.strategy).toEqual({ 'fail-fast': false, matrix: { shard: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
    const uses = job.steps.map((s: Doc) => s.uses).filter(Boolean);
    for (const action of uses) expect(action).toMatch(/@v\d+\.\d+\.\d+$/);
    const aws = job.steps.find((s: Doc) => String(s.uses).startsWith('aws-actions/configure-aws-credentials@'));
    expect(aws.with).toMatchObject({ 'role-to-assume': '${{ vars.HOPLAB_AWS_ROLE_ARN }}', 'role-duration-seconds': 7200 });
    const google = job.steps.find((s: Doc) => String(s.uses).startsWith('google-github-actions/auth@'));
    expect(google.with).toEqual({ workload_identity_provider: '${{ vars.HOPLAB_GCP_WORKLOAD_IDENTITY_PROVIDER }}', service_account: '${{ vars.HOPLAB_GCP_SERVICE_ACCOUNT }}' });
    expect(job.steps.some((s: Doc) => /secrets\./.test(JSON.stringify(s)))).toBe(false);
    expect(job.steps.find((s: Doc) => String(s.uses).startsWith('hashicorp/setup-terraform@')).with).toEqual({ terraform_version: '1.11.4', terraform_wrapper: false });
    expect(job.steps.find((s: Doc) => String(s.uses).startsWith('actions/cache@')).with.path).toBe('.hoplab/plugin-cache');
    expect(deploy.env.TF_PLUGIN_CACHE_DIR).toBe('${{ github.workspace }}/.hoplab/plugin-cache');
    const runs: string[] = job.steps.map((s: Doc) => s.run ?? s.uses);
    expect(runs.filter((r) => r.startsWith('npx hoplab'))).toEqual([
      'npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z',
      'npx hoplab deploy --shard ${{ matrix.shard }}/10 --yes',
      'npx hoplab compare --shard ${{ matrix.shard }}/10 --format json > hoplab-compare-${{ matrix.shard }}.json',
      'npx hoplab verify --shard ${{ matrix.shard }}/10',
    ]);
    // The guard runs on the committed config after npm ci and before any credentials.
    expect(runs.indexOf('npm ci')).toBeLessThan(runs.indexOf('npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z'));
    expect(runs.indexOf('npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z')).toBeLessThan(runs.findIndex((r) => r.startsWith('aws-actions/')));
    expect(uploads(deploy).find((u) => u.name === 'hoplab-deploy-logs-${{ matrix.shard }}')?.paths).toEqual(['.hoplab/logs/', '.hoplab/verify/', '!**/*.kubeconfig']);
  });

  test("GIVEN a canary WHEN generated THEN its job runs the deploy jobs' guard and its own before any credentials, deploys that environment with every stack and verifies it, and the shard jobs need it", () => {
    expect(Object.keys(deploy.jobs)).toEqual(['canary', 'deploy', 'outputs']);
    const job = deploy.jobs.canary;
    expect(job).toMatchObject({ name: 'canary: ann, every stack, then verify, before the shards', 'runs-on': 'ubuntu-24.04', 'timeout-minutes': 60 });
    expect(job.needs).toBeUndefined();
    expect(job.strategy).toBeUndefined();
    const runs: string[] = job.steps.map((s: Doc) => s.run ?? s.uses);
    expect(runs.filter((r) => r.startsWith('npx hoplab'))).toEqual([
      'npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z',
      'npx hoplab pipeline --check-canary ann',
      'npx hoplab deploy --env ann --yes',
      'npx hoplab verify --env ann',
    ]);
    // Both guards after npm ci and before the first credential, as in the shard jobs.
    const firstCredential = runs.findIndex((r) => r.startsWith('aws-actions/'));
    expect(runs.indexOf('npm ci')).toBeLessThan(runs.indexOf('npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z'));
    expect(runs.indexOf('npx hoplab pipeline --check-canary ann')).toBeLessThan(firstCredential);
    expect(credentialSteps(job).map((s: Doc) => s.with['role-duration-seconds'] ?? s.with.service_account)).toEqual([3600, '${{ vars.HOPLAB_GCP_SERVICE_ACCOUNT }}']);
    expect(uploads(deploy).find((u) => u.name === 'hoplab-canary-logs')?.paths).toEqual(['.hoplab/logs/', '.hoplab/verify/', '!**/*.kubeconfig']);
    // A failed canary skips every shard job, and the gather job, which would only find no shard's file.
    expect(deploy.jobs.deploy.needs).toBe('canary');
    expect(deploy.jobs.outputs).toMatchObject({ needs: ['canary', 'deploy'], if: "always() && needs.canary.result == 'success'" });
    expect(files[0].text).toContain(
      "# The canary first: ann, the config's first environment (deploy's canary), deployed with every stack and verified;\n" +
        '# the shard jobs wait for it: a failed canary stops the pipeline with one lab billed.\n',
    );
    // The teardown and the reaper have no canary.
    expect(JSON.stringify([teardown, reap])).not.toContain('canary');
  });

  test('GIVEN one environment (no canary) WHEN generated THEN no canary job, and the shard and gather jobs as they were', () => {
    const [alone] = githubActionsWorkflows(input({ canary: undefined }));
    const doc = parse(alone.text) as Doc;
    expect(Object.keys(doc.jobs)).toEqual(['deploy', 'outputs']);
    expect(doc.jobs.deploy.needs).toBeUndefined();
    expect(doc.jobs.outputs).toMatchObject({ needs: 'deploy', if: 'always()' });
    expect(alone.text).not.toContain('canary');
    expect(validate(doc)).toBe(true);
  });

  test('GIVEN a branch WHEN generated THEN the deploy and teardown files say to run them from it; no push trigger names a branch', () => {
    const [d, t, r] = githubActionsWorkflows(input({ branch: 'trunk' }));
    const line = "# Run it from the branch trunk (Run workflow > Use workflow from): the cloud roles trust that branch's jobs.\n";
    expect(d.text).toContain(line);
    expect(t.text).toContain(line);
    expect(r.text).not.toContain('Run it from the branch');
    for (const file of [d, t, r]) expect((parse(file.text) as Doc).on.push).toBeUndefined();
  });

  test('GIVEN the deploy workflow THEN its last job gathers the outputs, writes the handouts from the gathered file and keeps only their pages and Markdown: no upload can take a kubeconfig', () => {
    const runs = deploy.jobs.outputs.steps.map((s: Doc) => s.run).filter(Boolean);
    expect(runs).toEqual([
      'npm ci',
      'npx hoplab pipeline --gather compare --shards 10 --out hoplab-compare.json >> "$GITHUB_STEP_SUMMARY"',
      'npx hoplab handout --outputs hoplab-compare.json --out handouts --no-kubeconfigs',
    ]);
    const handouts = uploads(deploy).find((u) => u.name === 'hoplab-handouts')!;
    expect(handouts.paths).toEqual(['handouts/*.html', 'handouts/*.md', '!**/*.kubeconfig']);
    // Each pattern that adds files ends in a literal .html, .md, .json or a folder of logs: none can name a *.kubeconfig file.
    for (const doc of [deploy, teardown, reap]) {
      for (const upload of uploads(doc)) {
        expect(upload.paths.at(-1)).toBe('!**/*.kubeconfig');
        for (const path of upload.paths.slice(0, -1)) expect(path).toMatch(/(\.html|\.md|\.json|^\.hoplab\/(logs|verify)\/)$/);
      }
    }
  });

  test('GIVEN a narrowed app.allowedSourceCidrs WHEN generated THEN no job runs verify and the file says why and where to run it', () => {
    const [narrowed] = githubActionsWorkflows(input({ verify: NARROWED }));
    const doc = parse(narrowed.text) as Doc;
    expect(JSON.stringify(doc)).not.toContain('hoplab verify');
    expect(narrowed.text).toContain(`# verify does not run here: ${NARROWED.why}.\n`);
    expect(uploads(doc).find((u) => u.name === 'hoplab-deploy-logs-${{ matrix.shard }}')?.paths).toEqual(['.hoplab/logs/', '!**/*.kubeconfig']);
    // The canary is still deployed with every stack before the shards, without verify.
    expect(doc.jobs.canary.name).toBe('canary: ann, every stack, before the shards');
    expect(doc.jobs.canary.steps.map((s: Doc) => s.run).filter((r: string | undefined) => r?.startsWith('npx hoplab deploy'))).toEqual(['npx hoplab deploy --env ann --yes']);
    expect(uploads(doc).find((u) => u.name === 'hoplab-canary-logs')?.paths).toEqual(['.hoplab/logs/', '!**/*.kubeconfig']);
    expect(narrowed.text).toContain('deployed with every stack;\n');
  });

  test('GIVEN the teardown workflow THEN it takes a required input, a job without credentials checks it names the workshop before anything runs, and the shard jobs use the hoplab-teardown environment', () => {
    expect(teardown.on).toEqual({
      workflow_dispatch: { inputs: { workshop: { description: "Type the workshop's name (workshop.name in the config) to tear it down", required: true, type: 'string' } } },
    });
    const confirm = teardown.jobs.confirm;
    expect(confirm.needs).toBeUndefined();
    expect(credentialSteps(confirm)).toEqual([]);
    expect(confirm.permissions).toEqual({ contents: 'read' });
    // The input reaches the check through a variable, never as text pasted into the script.
    expect(confirm.steps.at(-1)).toEqual({ name: 'confirm', env: { HOPLAB_CONFIRM_WORKSHOP: '${{ inputs.workshop }}' }, run: 'npx hoplab pipeline --confirm-workshop' });
    expect(teardown.jobs.teardown).toMatchObject({ needs: 'confirm', environment: 'hoplab-teardown' });
    expect(teardown.jobs.teardown.steps.map((s: Doc) => s.run)).toContain('npx hoplab teardown --shard ${{ matrix.shard }}/10 --yes');
    expect(teardown.jobs.leftovers).toMatchObject({ needs: ['confirm', 'teardown'], if: "always() && needs.confirm.result == 'success'" });
    expect(teardown.jobs.leftovers.environment).toBeUndefined();
    const run = teardown.jobs.leftovers.steps.map((s: Doc) => s.run).filter(Boolean);
    expect(run).toContain('npx hoplab teardown --leftovers-only --yes');
    expect(JSON.stringify(teardown.jobs.leftovers)).not.toContain('--shard');
  });

  test('GIVEN the reaper WHEN generated THEN it runs hourly on the days of the window, a date check without credentials decides, and only then reap runs', () => {
    expect(reap.on).toEqual({ schedule: [{ cron: '17 * 30,31 12 *' }, { cron: '17 * 1,2 1 *' }] });
    expect(reap.on.workflow_dispatch).toBeUndefined();
    const due = reap.jobs.due;
    expect(due).toMatchObject({ permissions: {}, outputs: { due: '${{ steps.date.outputs.due }}' } });
    expect(due.steps).toHaveLength(1);
    expect(due.steps[0].env).toEqual({ HOPLAB_EXPIRES_AT: '2026-12-30T22:00:00Z', HOPLAB_REAP_WINDOW_HOURS: 72 });
    expect(reap.jobs.reap).toMatchObject({ needs: 'due', if: "needs.due.outputs.due == 'true'", 'timeout-minutes': 180, concurrency: { group: 'hoplab-workshop' } });
    // The hourly date check is not in the workshop's concurrency group: it never displaces a queued deploy or teardown.
    expect(reap.concurrency).toBeUndefined();
    expect(reap.jobs.reap.environment).toBeUndefined();
    expect(
      credentialSteps(reap.jobs.reap)
        .map((s: Doc) => s.with['role-duration-seconds'])
        .filter(Boolean),
    ).toEqual([10800]);
    expect(reap.jobs.reap.steps.map((s: Doc) => s.run)).toContain('npx hoplab reap --yes');
  });

  test.each([
    ['ended an hour ago', 'due=true', -1, /^due: the workshop ended at .* reaping$/m],
    ['ends in an hour', 'due=false', 1, /^not due: the workshop ends at .*; nothing reaped$/m],
    [
      'ended 73 hours ago (the same days of a later year look like this)',
      'due=false',
      -73,
      /^::warning::stale: this schedule is for a workshop that ended at .* more than 72 hours ago \(cron has no year\); nothing reaped\. Delete \.github\/workflows\/hoplab-reap\.yml/m,
    ],
  ])('GIVEN a workshop that %s WHEN the date check runs THEN it says %s', (_what, output, hours, said) => {
    const expiresAt = hoursFromNow(hours);
    const step = (parse(githubActionsWorkflows(input({ expiresAt }))[2].text) as Doc).jobs.due.steps[0];
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-reap-')), 'output');
    writeFileSync(file, '');
    const ran = bash(step.run, { ...Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, String(v)])), GITHUB_OUTPUT: file });
    expect(ran.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${output}\n`);
    expect(ran.out).toMatch(said);
  });

  test('GIVEN a parallelism WHEN generated THEN each shard job and the canary pass it', () => {
    const [d] = githubActionsWorkflows(input({ shards: 2, parallelism: 6, jobMinutes: 60 })).map((f) => parse(f.text) as Doc);
    expect(d.jobs.deploy.steps.map((s: Doc) => s.run)).toContain('npx hoplab deploy --shard ${{ matrix.shard }}/2 --parallelism 6 --yes');
    expect(d.jobs.canary.steps.map((s: Doc) => s.run)).toContain('npx hoplab deploy --env ann --parallelism 6 --yes');
    expect(d.jobs.deploy['timeout-minutes']).toBe(60);
  });
});

describe("the reaper's schedule", () => {
  test.each([
    ['2026-12-01T18:00:00Z', ['17 * 1,2,3,4 12 *']],
    ['2026-12-30T22:00:00Z', ['17 * 30,31 12 *', '17 * 1,2 1 *']],
    ['2028-02-28T00:00:00Z', ['17 * 28,29 2 *', '17 * 1,2 3 *']],
    ['2026-06-10T00:00:00Z', ['17 * 10,11,12,13 6 *']],
  ])('GIVEN workshop.expiresAt %s THEN hourly on each day from it to 72 hours after', (expiresAt, crons) => {
    expect(reapCrons(expiresAt)).toEqual(crons);
  });
});

describe('GitLab CI pipeline', () => {
  const file = gitlabPipeline(input());
  const doc = parse(file.text) as Doc;
  const validate = validator('gitlab-ci.schema.json');
  const jobsWithArtifacts = () => Object.entries(doc).filter(([, job]) => (job as Doc)?.artifacts !== undefined) as [string, Doc][];

  test("GIVEN 10 shards WHEN generated THEN .gitlab-ci.yml is valid by GitLab's CI schema", () => {
    expect(file.path).toBe('.gitlab-ci.yml');
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test('GIVEN the schema WHEN a broken pipeline is checked THEN it fails', () => {
    expect(validate({ ...doc, deploy: { ...doc.deploy, parallel: 500 } })).toBe(false);
    expect(validate({ ...doc, deploy: { ...doc.deploy, id_tokens: { AWS_ID_TOKEN: { audience: 'x' } } } })).toBe(false);
  });

  test('GIVEN the pipeline THEN parallel shard jobs with ID tokens for both clouds, the provider cache, and the final jobs', () => {
    const clouds = doc['.hoplab-clouds'];
    expect(clouds.id_tokens).toEqual({
      AWS_ID_TOKEN: { aud: 'sts.amazonaws.com' },
      GCP_ID_TOKEN: { aud: 'https://iam.googleapis.com/$HOPLAB_GCP_WORKLOAD_IDENTITY_PROVIDER' },
    });
    const before = clouds.before_script.join('\n');
    expect(before).toContain('AWS_WEB_IDENTITY_TOKEN_FILE="$CI_PROJECT_DIR/.hoplab/aws-id-token"');
    expect(before).toContain('"type": "external_account"');
    expect(before).toContain('sha256sum -c -');
    expect(clouds.before_script.at(-1)).toBe('npm ci');
    expect(clouds.cache).toEqual({ key: { files: ['package-lock.json'], prefix: 'terraform-providers' }, paths: ['.hoplab/plugin-cache/'] });
    expect(doc.deploy).toMatchObject({ extends: '.hoplab-clouds', parallel: 10, rules: [{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "deploy"' }] });
    expect(doc.deploy.script).toEqual([
      'npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z',
      'npx hoplab deploy --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --yes',
      'npx hoplab compare --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --format json > "hoplab-compare-${CI_NODE_INDEX:-1}.json"',
      'npx hoplab verify --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}"',
    ]);
    expect(doc.outputs.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "deploy"', when: 'always' }]);
    expect(doc.stages).toEqual(['confirm', 'canary', 'deploy', 'outputs', 'teardown', 'leftovers', 'reap']);
    expect(doc.teardown.script).toEqual(['npx hoplab teardown --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --yes']);
    expect(doc.leftovers).toMatchObject({ stage: 'leftovers', needs: ['teardown'], rules: [{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "teardown"', when: 'always' }] });
    expect(JSON.stringify(doc)).not.toMatch(/AWS_SECRET_ACCESS_KEY|private_key/);
  });

  test("GIVEN a canary THEN its job, in the stage before the shards', runs the deploy jobs' guard and its own, deploys that environment with every stack and verifies it", () => {
    expect(doc.canary).toEqual({
      extends: '.hoplab-clouds',
      stage: 'canary',
      rules: [{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "deploy"' }],
      script: [
        'npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z',
        'npx hoplab pipeline --check-canary ann',
        'npx hoplab deploy --env ann --yes',
        'npx hoplab verify --env ann',
        // Its last step: only a canary that passed leaves this file for the outputs job.
        'touch .hoplab/canary-passed',
      ],
      timeout: '60 minutes',
      artifacts: { when: 'always', paths: ['.hoplab/logs/', '.hoplab/verify/', '.hoplab/canary-passed'], exclude: ['**/*.kubeconfig'], expire_in: '30 days' },
    });
    // The shard jobs wait by stage (a failed canary skips them), and take none of its artifacts.
    expect(doc.stages.indexOf('canary')).toBe(doc.stages.indexOf('deploy') - 1);
    expect(doc.deploy.needs).toBeUndefined();
    expect(doc.deploy.dependencies).toEqual([]);
    expect(file.text).toContain(
      "# The canary first: ann, the config's first environment (deploy's canary), deployed with every stack and verified;\n" +
        '# the shard jobs wait for it: a failed canary stops the pipeline with one lab billed.\n',
    );
  });

  test('GIVEN a canary THEN the outputs job needs it (its artifacts) and the shard jobs, still runs after failed shards, and only its canary-failed exit is allowed to fail', () => {
    expect(doc.outputs.needs).toEqual([
      { job: 'canary', artifacts: true },
      { job: 'deploy', artifacts: true },
    ]);
    // when: always, as before: a failed shard must not keep it from gathering the others.
    expect(doc.outputs.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "deploy"', when: 'always' }]);
    expect(doc.outputs.allow_failure).toEqual({ exit_codes: [3] });
    expect(doc.outputs.script[0]).toBe('test -f .hoplab/canary-passed || { echo "the canary failed: nothing to gather (the shard jobs did not run; the canary job\'s log says why)"; exit 3; }');
  });

  test('GIVEN a canary job that failed WHEN the outputs job runs THEN it ends at its first step saying so, runs nothing, and its exit code is the one allowed to fail', () => {
    // One folder stands for the canary's workspace and the artifact the outputs job takes from it; .hoplab/ is made by its before_script.
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-canary-'));
    mkdirSync(join(dir, '.hoplab'));
    const log = join(dir, 'stub.log');
    const canary = gitlabJob(doc.canary.script, dir, log, '^hoplab verify');
    expect(canary.status).toBe(1);
    expect(existsSync(join(dir, '.hoplab/canary-passed'))).toBe(false);
    writeFileSync(log, '');
    const outputs = gitlabJob(doc.outputs.script, dir, log);
    expect(outputs.out).toBe("the canary failed: nothing to gather (the shard jobs did not run; the canary job's log says why)\n");
    expect(outputs.status).toBe(3);
    expect(doc.outputs.allow_failure.exit_codes).toContain(outputs.status);
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  test.each([
    ['every shard sent its outputs', '', 0],
    ['a shard failed (the gather names it, exit 1)', '--gather', 1],
  ])("GIVEN a canary job that passed and %s WHEN the outputs job runs THEN it gathers and writes the handouts, with the gather's exit code", (_what, failOn, status) => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-canary-'));
    mkdirSync(join(dir, '.hoplab'));
    const log = join(dir, 'stub.log');
    expect(gitlabJob(doc.canary.script, dir, log).status).toBe(0);
    expect(existsSync(join(dir, '.hoplab/canary-passed'))).toBe(true);
    writeFileSync(log, '');
    const outputs = gitlabJob(doc.outputs.script, dir, log, failOn);
    expect(outputs.status).toBe(status);
    expect(doc.outputs.allow_failure.exit_codes).not.toContain(1);
    expect(readFileSync(log, 'utf8').split('\n')).toEqual([
      'npm ci',
      'npx hoplab pipeline --gather . --shards 10 --out hoplab-compare.json',
      'npx hoplab handout --outputs hoplab-compare.json --out handouts --no-kubeconfigs',
      '',
    ]);
  });

  test('GIVEN one environment (no canary) THEN no canary stage or job, and the shard jobs as they were', () => {
    const alone = gitlabPipeline(input({ canary: undefined }));
    const one = parse(alone.text) as Doc;
    expect(one.stages).toEqual(['confirm', 'deploy', 'outputs', 'teardown', 'leftovers', 'reap']);
    expect(one.canary).toBeUndefined();
    expect(one.deploy.dependencies).toBeUndefined();
    // No canary to wait for: the outputs job needs the shard jobs alone and starts with npm ci.
    expect(one.outputs.needs).toEqual([{ job: 'deploy', artifacts: true }]);
    expect(one.outputs.allow_failure).toBeUndefined();
    expect(one.outputs.script[0]).toBe('npm ci');
    expect(alone.text).not.toContain('canary');
    expect(validate(one)).toBe(true);
  });

  test("GIVEN a branch THEN the header says to run the pipelines on it and names it as the schedules' target branch", () => {
    const text = gitlabPipeline(input({ branch: 'trunk' })).text;
    expect(text).toContain('# Run the pipelines on the branch trunk: the cloud roles trust its jobs (npx hoplab pipeline prints the OIDC subjects).\n');
    expect(text).toContain('cron timezone UTC; target branch trunk):\n');
    expect(text).not.toMatch(/branch main|ref:main/);
  });

  test('GIVEN the pipeline THEN only Run pipeline, the API and schedules start it: a push never deploys, although HOPLAB_ACTION defaults to deploy', () => {
    expect(doc.variables.HOPLAB_ACTION.value).toBe('deploy');
    expect(doc.workflow.rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "schedule"' },
      { if: '($CI_PIPELINE_SOURCE == "web" || $CI_PIPELINE_SOURCE == "api") && ($HOPLAB_ACTION == "deploy" || $HOPLAB_ACTION == "teardown")' },
    ]);
  });

  test('GIVEN a teardown THEN a confirm stage checks HOPLAB_CONFIRM_WORKSHOP names the workshop first, the leftover check checks it too, and the shard jobs use the hoplab-teardown environment', () => {
    expect(doc.variables.HOPLAB_CONFIRM_WORKSHOP).toEqual({ value: '', description: "teardown only: type the workshop's name (workshop.name in the config); the teardown refuses any other" });
    expect(doc.stages.indexOf('confirm')).toBeLessThan(doc.stages.indexOf('teardown'));
    expect(doc.confirm).toMatchObject({
      stage: 'confirm',
      rules: [{ if: '$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "teardown"' }],
      script: ['npm ci', 'npx hoplab pipeline --confirm-workshop'],
    });
    expect(doc.confirm.id_tokens).toBeUndefined();
    expect(doc.confirm.extends).toBeUndefined();
    expect(doc.teardown.environment).toEqual({ name: 'hoplab-teardown' });
    // when: always runs the leftover check after a failed shard; the check inside it, before its credentials, keeps it from running after a refused confirmation.
    expect(doc.leftovers.before_script.slice(0, 2)).toEqual(['npm ci', 'npx hoplab pipeline --confirm-workshop']);
    expect(doc.leftovers.before_script.findIndex((line: string) => line.includes('AWS_ID_TOKEN'))).toBeGreaterThan(1);
    expect(doc.leftovers.script).toEqual(['npx hoplab teardown --leftovers-only --yes']);
  });

  test('GIVEN the outputs job THEN it writes the handouts from the gathered file even when a shard sent nothing, and its artifact keeps only their pages and Markdown', () => {
    expect(doc.outputs.script).toEqual([
      'test -f .hoplab/canary-passed || { echo "the canary failed: nothing to gather (the shard jobs did not run; the canary job\'s log says why)"; exit 3; }',
      'npm ci',
      'status=0; npx hoplab pipeline --gather . --shards 10 --out hoplab-compare.json || status=$?',
      'npx hoplab handout --outputs hoplab-compare.json --out handouts --no-kubeconfigs',
      'exit $status',
    ]);
    expect(doc.outputs.artifacts.paths).toEqual(['hoplab-compare.json', 'handouts/*.html', 'handouts/*.md']);
    expect(jobsWithArtifacts().map(([name]) => name)).toEqual(['canary', 'deploy', 'outputs', 'teardown', 'reap']);
    for (const [, job] of jobsWithArtifacts()) {
      expect(job.artifacts.exclude).toEqual(['**/*.kubeconfig']);
      for (const path of job.artifacts.paths) expect(path).toMatch(/(\.html|\.md|\.json|^\.hoplab\/(logs|verify)\/|^\.hoplab\/canary-passed)$/);
    }
  });

  test('GIVEN a narrowed app.allowedSourceCidrs THEN the deploy jobs do not verify and the header says why', () => {
    const narrowed = gitlabPipeline(input({ verify: NARROWED }));
    expect((parse(narrowed.text) as Doc).deploy.script).not.toContainEqual(expect.stringContaining('hoplab verify'));
    expect((parse(narrowed.text) as Doc).canary.script).toEqual([
      'npx hoplab pipeline --check-expiry 2026-12-30T22:00:00Z',
      'npx hoplab pipeline --check-canary ann',
      'npx hoplab deploy --env ann --yes',
      'touch .hoplab/canary-passed',
    ]);
    expect((parse(narrowed.text) as Doc).canary.artifacts.paths).toEqual(['.hoplab/logs/', '.hoplab/canary-passed']);
    expect(narrowed.text).toContain(`# verify does not run here: ${NARROWED.why}.\n`);
  });

  test('GIVEN the reaper THEN only a scheduled pipeline runs it, the header gives the schedules to create, and its script checks the date before any tool or credential', () => {
    expect(doc.reap).toMatchObject({ stage: 'reap', rules: [{ if: '$CI_PIPELINE_SOURCE == "schedule"' }], before_script: [], timeout: '180 minutes' });
    expect(doc.reap.variables).toEqual({ HOPLAB_EXPIRES_AT: '2026-12-30T22:00:00Z', HOPLAB_REAP_WINDOW_HOURS: '72' });
    expect(doc.reap.script[0]).toMatch(/^now=\$\(date -u \+%s\)\n/);
    expect(doc.reap.script.slice(-2)).toEqual(['npm ci', 'npx hoplab reap --yes']);
    expect(file.text).toContain(
      '# The reaper: a pipeline schedule per line (Build > Pipeline schedules > New schedule; cron timezone UTC; target branch main):\n#   17 * 30,31 12 *\n#   17 * 1,2 1 *\n',
    );
  });

  test.each([
    ['ended an hour ago', true, -1],
    ['ends in an hour', false, 1],
    ['ended 73 hours ago', false, -73],
  ])('GIVEN a workshop that %s WHEN the reap job runs THEN it goes on past the date check: %s', (_what, goesOn, hours) => {
    const job = (parse(gitlabPipeline(input({ expiresAt: hoursFromNow(hours) })).text) as Doc).reap;
    const ran = bash(`${job.script[0]}\necho "past the date check"`, job.variables);
    expect(ran.status).toBe(0);
    expect(ran.out.includes('past the date check')).toBe(goesOn);
  });

  test('GIVEN one shard WHEN generated THEN no parallel keyword (GitLab wants 2 to 200) and still valid', () => {
    const one = parse(gitlabPipeline(input({ shards: 1 })).text) as Doc;
    expect(one.deploy.parallel).toBeUndefined();
    expect(validate(one)).toBe(true);
  });

  test('GIVEN more shards than GitLab runs in parallel WHEN generated THEN it refuses', () => {
    expect(() => gitlabPipeline(input({ shards: 201 }))).toThrow("--shards: 201 is more than GitLab's 200 parallel jobs of one job; use at most 200");
  });
});

describe("gathering the shards' outputs", () => {
  test('GIVEN two of three shard files WHEN gathered THEN one document of all their environments, and the missing shard named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-gather-'));
    const doc = (envs: string[]) => JSON.stringify({ schema: 'hoplab.compare/v1', source: 'cdktf output', probe: null, environments: envs.map((env) => ({ env })), ignored_stacks: [] });
    writeFileSync(join(dir, 'hoplab-compare-1.json'), doc(['bob']));
    writeFileSync(join(dir, 'hoplab-compare-3.json'), doc(['ann', 'cy']));
    writeFileSync(join(dir, 'unrelated.json'), '{}');
    const gathered = gatherOutputs(dir, 3);
    expect(gathered.document.environments).toEqual([{ env: 'ann' }, { env: 'bob' }, { env: 'cy' }]);
    expect(gathered).toMatchObject({ found: [1, 3], missing: [2] });
    expect(formatGathered(gathered, 3)).toEqual([
      '### hoplab outputs: 3 environments from 2 of 3 shards',
      '',
      'Missing shards: 2: their deploy job failed or did not run; re-run those jobs, then this one.',
      '',
      'Environments: ann, bob, cy',
    ]);
  });

  test('GIVEN a shard file that is not a compare document WHEN gathered THEN the error names it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-gather-'));
    writeFileSync(join(dir, 'hoplab-compare-1.json'), 'npm WARN something\n{}');
    // npm's own line before the JSON: the words are V8's for `n` read as the start of `null`, on every Node.
    expect(() => gatherOutputs(dir, 1)).toThrow(
      new Error(
        `${join(dir, 'hoplab-compare-1.json')} is not valid JSON at line 1, column 2: Unexpected token 'p' (line 1: "npm WARN something"); it should hold \`npm run -s compare -- --format json\``,
      ),
    );
  });
});

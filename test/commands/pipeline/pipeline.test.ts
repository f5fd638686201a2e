import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { formatGathered, gatherOutputs } from '../../../lib/commands/pipeline/gather';
import { githubActionsWorkflows } from '../../../lib/commands/pipeline/github-actions';
import { gitlabPipeline } from '../../../lib/commands/pipeline/gitlab-ci';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

function validator(schemaFile: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(fixture(schemaFile));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

describe('GitHub Actions workflows', () => {
  const files = githubActionsWorkflows({ shards: 10 }, 7200);
  const [deploy, teardown] = files.map((f) => parse(f.text) as Doc);
  const validate = validator('github-workflow.schema.json');

  test('GIVEN 10 shards WHEN generated THEN both files are valid workflows by the SchemaStore schema', () => {
    expect(files.map((f) => f.path)).toEqual(['.github/workflows/hoplab-deploy.yml', '.github/workflows/hoplab-teardown.yml']);
    for (const doc of [deploy, teardown]) {
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  test('GIVEN the schema WHEN a broken workflow is checked THEN it fails (the validator is not a rubber stamp)', () => {
    expect(validate({ ...deploy, jobs: { deploy: { ...deploy.jobs.deploy, 'runs-on': undefined, steps: 'npm ci' } } })).toBe(false);
    expect(validate({ ...deploy, permissions: { 'id-token': 'always' } })).toBe(false);
  });

  test('GIVEN the deploy workflow THEN a matrix job per shard federates to both clouds and deploys its shard', () => {
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
    const runs = job.steps.map((s: Doc) => s.run).filter(Boolean);
    expect(runs).toContain('npm ci');
    expect(runs).toContain('npm run deploy -- --shard ${{ matrix.shard }}/10 --yes');
    expect(deploy.jobs.outputs).toMatchObject({ needs: 'deploy', if: 'always()' });
    expect(JSON.stringify(deploy.jobs.outputs.steps)).toContain('npm run -s pipeline -- --gather compare --shards 10');
  });

  test('GIVEN the teardown workflow THEN sharded teardown, then the leftover check of all environments even after a failed shard', () => {
    expect(teardown.jobs.teardown.steps.map((s: Doc) => s.run)).toContain('npm run teardown -- --shard ${{ matrix.shard }}/10 --yes');
    expect(teardown.jobs.leftovers).toMatchObject({ needs: 'teardown', if: 'always()' });
    const run = teardown.jobs.leftovers.steps.map((s: Doc) => s.run).filter(Boolean);
    expect(run).toContain('npm run teardown -- --leftovers-only --yes');
    expect(JSON.stringify(teardown.jobs.leftovers)).not.toContain('--shard');
  });

  test('GIVEN a parallelism WHEN generated THEN each shard job passes it', () => {
    const [d] = githubActionsWorkflows({ shards: 2, parallelism: 6 }, 3600).map((f) => parse(f.text) as Doc);
    expect(d.jobs.deploy.steps.map((s: Doc) => s.run)).toContain('npm run deploy -- --shard ${{ matrix.shard }}/2 --parallelism 6 --yes');
    expect(d.jobs.deploy['timeout-minutes']).toBe(60);
  });
});

describe('GitLab CI pipeline', () => {
  const file = gitlabPipeline({ shards: 10 }, 120);
  const doc = parse(file.text) as Doc;
  const validate = validator('gitlab-ci.schema.json');

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
    expect(doc.deploy).toMatchObject({ extends: '.hoplab-clouds', parallel: 10, rules: [{ if: '$HOPLAB_ACTION == "deploy"' }] });
    expect(doc.deploy.script[0]).toBe('npm run deploy -- --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --yes');
    expect(doc.outputs.rules).toEqual([{ if: '$HOPLAB_ACTION == "deploy"', when: 'always' }]);
    expect(doc.teardown.script).toEqual(['npm run teardown -- --shard "${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}" --yes']);
    expect(doc.leftovers).toMatchObject({
      stage: 'leftovers',
      needs: ['teardown'],
      script: ['npm run teardown -- --leftovers-only --yes'],
      rules: [{ if: '$HOPLAB_ACTION == "teardown"', when: 'always' }],
    });
    expect(JSON.stringify(doc)).not.toMatch(/AWS_SECRET_ACCESS_KEY|private_key/);
  });

  test('GIVEN one shard WHEN generated THEN no parallel keyword (GitLab wants 2 to 200) and still valid', () => {
    const one = parse(gitlabPipeline({ shards: 1 }, 60).text) as Doc;
    expect(one.deploy.parallel).toBeUndefined();
    expect(validate(one)).toBe(true);
  });

  test('GIVEN more shards than GitLab runs in parallel WHEN generated THEN it refuses', () => {
    expect(() => gitlabPipeline({ shards: 201 }, 60)).toThrow("--shards: 201 is more than GitLab's 200 parallel jobs of one job; use at most 200");
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
    expect(() => gatherOutputs(dir, 1)).toThrow(`${join(dir, 'hoplab-compare-1.json')}: not JSON`);
  });
});

/**
 * `pipeline` as a host runs it, in real temporary git repositories (git on
 * the PATH): the committed-config check, the refusals, the trust conditions
 * it prints, and the guards the generated jobs run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { checkConfigTracked } from '../../../lib/commands/pipeline/config-tracked';
import { pipeline } from '../../../lib/commands/pipeline/pipeline';
import { githubTrust, gitlabTrust, repositoryOf, trustLines } from '../../../lib/commands/pipeline/trust';
import { UsageError } from '../../../lib/kit/cli/cli';

const CONFIG = {
  attendees: ['ann', 'bob'],
  workshop: { name: 'k8s-lb-101', expiresAt: '2026-12-08T18:00:00Z' },
  backend: { type: 's3', bucket: 'acme-hoplab-state', region: 'us-east-1' },
};
const NOW = () => new Date('2026-12-07T06:00:00Z');

function git(cwd: string, ...args: string[]) {
  const result = spawnSync('git', ['-c', 'user.name=hoplab', '-c', 'user.email=hoplab@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** A temporary folder with `hoplab.config.json` (unless `config` is null), a git repository unless `repo` is false, the config committed when `commit`. */
function workspace(options: { config?: object | null; repo?: boolean; commit?: boolean; remote?: string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-pipeline-'));
  if (options.config !== null) writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify(options.config ?? CONFIG));
  if (options.repo === false) return dir;
  git(dir, 'init', '-q');
  if (options.remote) git(dir, 'remote', 'add', 'origin', options.remote);
  if (options.commit) {
    git(dir, 'add', 'hoplab.config.json');
    git(dir, 'commit', '-q', '-m', 'the workshop');
  }
  return dir;
}

/**
 * A clone (so git knows origin's default branch, refs/remotes/origin/HEAD) of a repository whose
 * default branch is `defaultBranch`, holding the committed config; origin then set to `remote`.
 */
function clonedWorkspace(defaultBranch: string, remote = 'git@github.com:acme/k8s-lab.git'): string {
  const upstream = mkdtempSync(join(tmpdir(), 'hoplab-pipeline-upstream-'));
  git(upstream, 'init', '-q', '-b', defaultBranch);
  writeFileSync(join(upstream, 'hoplab.config.json'), JSON.stringify(CONFIG));
  git(upstream, 'add', 'hoplab.config.json');
  git(upstream, 'commit', '-q', '-m', 'the workshop');
  const dir = join(mkdtempSync(join(tmpdir(), 'hoplab-pipeline-clone-')), 'lab');
  git(tmpdir(), 'clone', '-q', upstream, dir);
  git(dir, 'remote', 'set-url', 'origin', remote);
  return dir;
}

/** The lines from `first` up to (without) the line starting with `end`. */
const linesBetween = (lines: string[], first: string, end: string) => {
  const from = lines.findIndex((l) => l.startsWith(first));
  const to = lines.findIndex((l, i) => i > from && l.startsWith(end));
  return lines.slice(from, to);
};

async function run(dir: string, argv: string[], env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = [];
  const code = await pipeline(argv, { cwd: dir, env, now: NOW, out: (line) => lines.push(line) });
  return { code, lines };
}

const refusal = async (dir: string, argv: string[]) => {
  const error = await run(dir, argv).then(
    () => undefined,
    (e: Error & { userMessage?: string }) => e,
  );
  return error?.userMessage ?? error?.message;
};

const GITHUB = ['--github-actions', '--shards', '2'];

describe('the config file the pipelines read must be committed', () => {
  test('GIVEN a committed config and a GitHub remote WHEN pipeline writes THEN the three workflows, and the exact trust conditions for that repository, within 80 columns', async () => {
    const dir = workspace({ commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    const { code, lines } = await run(dir, [...GITHUB, '--dir', dir]);
    expect(code).toBe(0);
    for (const file of ['hoplab-deploy.yml', 'hoplab-teardown.yml', 'hoplab-reap.yml']) expect(existsSync(join(dir, '.github', 'workflows', file))).toBe(true);
    // Nothing after the trust: no note, as the config is committed as it is.
    expect(lines.slice(-18)).toEqual([
      'GitHub Actions: the cloud roles must trust these OIDC subjects, or the jobs get',
      'no credentials (docs/workshops-and-ci.md, "OIDC subjects"):',
      // A fresh repository: a remote never fetched, so git knows no default branch; main is checked out.
      '  The jobs run on the branch main, the current one: git knows no default branch',
      '  for origin (git remote set-head origin --auto asks the remote); --branch names',
      '  another.',
      "  GitHub runs the reaper's schedule only on the default branch (git does not",
      "  know whether it is main), with that branch's subject: give --branch its name",
      '  or admit its subject too, or the reaper gets no credentials.',
      "  AWS, the role's trust policy: token.actions.githubusercontent.com:sub",
      '  (StringEquals) is one of',
      '    repo:acme/k8s-lab:ref:refs/heads/main',
      '    repo:acme/k8s-lab:environment:hoplab-teardown',
      "  Google, the Workload Identity provider's attribute condition:",
      "    assertion.sub == 'repo:acme/k8s-lab:ref:refs/heads/main' ||",
      "    assertion.sub == 'repo:acme/k8s-lab:environment:hoplab-teardown'",
      '  A repository created after 2026-07-15 puts ids in them',
      '  (repo:OWNER@OWNER_ID/REPO@REPO_ID:...); this prints the ids:',
      "    gh api repos/acme/k8s-lab --jq '.owner.id, .id'",
    ]);
    expect(lines.join('\n')).toContain('The reaper: hourly at :17 UTC (17 * 8,9,10,11 12 *), reaping from\n2026-12-08T18:00:00Z (workshop.expiresAt) to 2026-12-11T18:00:00Z.');
    expect(lines.join('\n')).toContain("The teardown asks for the workshop's name (k8s-lb-101) and runs in the\nenvironment hoplab-teardown");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // The reaper's file carries the committed expiry.
    expect(readFileSync(join(dir, '.github/workflows/hoplab-reap.yml'), 'utf8')).toContain('HOPLAB_EXPIRES_AT: 2026-12-08T18:00:00Z');
  });

  test('GIVEN a GitLab project WHEN pipeline writes THEN one subject for every job, on its instance', async () => {
    const dir = workspace({ commit: true, remote: 'https://gitlab.example.com/acme/labs/k8s-lab.git' });
    const { lines } = await run(dir, ['--gitlab-ci', '--shards', '2', '--dir', dir]);
    expect(lines.slice(-9)).toEqual([
      'GitLab CI: the cloud roles must trust these OIDC subjects, or the jobs get no',
      'credentials (docs/workshops-and-ci.md, "OIDC subjects"):',
      // No note on schedules: a GitLab pipeline schedule names its target branch.
      '  The jobs run on the branch main, the current one: git knows no default branch',
      '  for origin (git remote set-head origin --auto asks the remote); --branch names',
      '  another.',
      "  AWS, the role's trust policy: gitlab.example.com:sub (StringEquals) is one of",
      '    project_path:acme/labs/k8s-lab:ref_type:branch:ref:main',
      "  Google, the Workload Identity provider's attribute condition:",
      "    assertion.sub == 'project_path:acme/labs/k8s-lab:ref_type:branch:ref:main'",
    ]);
  });

  test('GIVEN a config git does not track WHEN pipeline runs THEN it refuses naming the file, and writes nothing', async () => {
    const dir = workspace();
    expect(await refusal(dir, [...GITHUB, '--dir', dir])).toBe(
      [
        'hoplab pipeline: nothing written:',
        "  - hoplab.config.json is not tracked by git: the pipelines' jobs check out the repository and would run without it, with the defaults. " +
          'Commit it: git add hoplab.config.json && git commit (keep the repository private: the config names your attendees and their cloud identities)',
      ].join('\n'),
    );
    expect(existsSync(join(dir, '.github'))).toBe(false);
  });

  test('GIVEN a .gitignore that ignores the config (as hoplab once shipped) WHEN pipeline runs THEN the refusal names the rule', async () => {
    const dir = workspace();
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n/hoplab.config.json\n');
    expect(await refusal(dir, [...GITHUB, '--dir', dir])).toContain('Remove the rule at .gitignore:2 that ignores it, then commit it: git add hoplab.config.json && git commit');
  });

  test('GIVEN no git repository WHEN pipeline runs THEN it refuses, saying so', async () => {
    const dir = workspace({ repo: false });
    expect(await refusal(dir, [...GITHUB, '--dir', dir])).toBe(
      [
        'hoplab pipeline: nothing written:',
        `  - ${dir} is not in a git repository: the pipelines' jobs check out a repository and read hoplab.config.json from it; git init, then commit hoplab.config.json ` +
          '(keep the repository private: the config names your attendees and their cloud identities)',
      ].join('\n'),
    );
  });

  test('GIVEN no config file at all WHEN pipeline runs THEN every reason in one pass, the missing file first', async () => {
    const dir = workspace({ config: null });
    expect(await refusal(dir, [...GITHUB, '--dir', dir])).toBe(
      [
        'hoplab pipeline: nothing written:',
        '  - no hoplab.config.json, .yaml or .yml here (nor HOPLAB_CONFIG): the pipelines would run with the defaults; write the config, commit it, and run pipeline again',
        '  - --shard 1/2: backend.type is "local", but shards run on different machines (CI runners), each with its own disk: their state files would be lost with the runner, ' +
          'and a later teardown or another shard could not find them. Set backend to { "type": "s3", "bucket": ..., "region": ... } (locked with its lock file) or { "type": "gcs", "bucket": ... }',
        // The example: the day after the command's clock (NOW), 18:00 UTC.
        '  - workshop.expiresAt is unset: the reaper (a scheduled job) tears the workshop down once it has passed; set it, e.g. "2026-12-08T18:00:00Z" (UTC)',
      ].join('\n'),
    );
  });

  test('GIVEN a committed config with changes not committed, and an expiry already passed WHEN pipeline writes THEN it notes both', async () => {
    const dir = workspace({ commit: true });
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ ...CONFIG, workshop: { ...CONFIG.workshop, expiresAt: '2026-12-07T00:00:00Z' } }));
    const { code, lines } = await run(dir, [...GITHUB, '--dir', dir]);
    expect(code).toBe(0);
    expect(lines.join(' ')).toContain('note: hoplab.config.json has changes that are not committed; the jobs run the committed version: commit and push them');
    expect(lines.join(' ')).toContain('note: workshop.expiresAt (2026-12-07T00:00:00Z) has passed: the reaper tears the workshop down at its next hourly run');
  });
});

describe('the canary job', () => {
  test('GIVEN two attendees WHEN pipeline writes both CIs THEN each deploys and verifies ann, the first, in a job the shard jobs wait for, and says so', async () => {
    const dir = workspace({ commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    const { code, lines } = await run(dir, ['--github-actions', '--gitlab-ci', '--shards', '2', '--dir', dir]);
    expect(code).toBe(0);
    const github = parse(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8'));
    expect(github.jobs.canary.steps.map((s: { run?: string }) => s.run).filter((r: string | undefined) => r?.startsWith('npx hoplab'))).toEqual([
      'npx hoplab pipeline --check-expiry 2026-12-08T18:00:00Z',
      'npx hoplab pipeline --check-canary ann',
      'npx hoplab deploy --env ann --yes',
      'npx hoplab verify --env ann',
    ]);
    expect(github.jobs.deploy.needs).toBe('canary');
    // One environment's stacks (25 min) and its verify (10), doubled, in half hours.
    expect(github.jobs.canary['timeout-minutes']).toBe(90);
    const gitlab = parse(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8'));
    expect(gitlab.canary.script.slice(1)).toEqual(['npx hoplab pipeline --check-canary ann', 'npx hoplab deploy --env ann --yes', 'npx hoplab verify --env ann', 'touch .hoplab/canary-passed']);
    expect(gitlab.canary.timeout).toBe('90 minutes');
    expect(gitlab.stages.slice(1, 3)).toEqual(['canary', 'deploy']);
    expect(linesBetween(lines, 'The canary:', 'verify:')).toEqual([
      'The canary: ann, the environment deploy applies first, is deployed with every',
      'stack and verified in a job of its own (90 min at most) before the shard jobs',
      'start; they wait for it, and the shard that holds ann finds it applied.',
    ]);
    // What the guard in the job will say on this config: ann is still the first.
    expect((await run(dir, ['--check-canary', 'ann'])).lines).toEqual(['the canary ann is the environment deploy applies first (hoplab.config.json)']);
  });

  test('GIVEN no attendees (one environment, its own canary) WHEN pipeline writes THEN no canary job, said', async () => {
    // No attendees: one environment, the config's name (JSON leaves the undefined out).
    const dir = workspace({ config: { ...CONFIG, attendees: undefined }, commit: true });
    const { lines } = await run(dir, ['--github-actions', '--gitlab-ci', '--shards', '2', '--dir', dir]);
    expect(lines).toContain('One environment: no canary job (it is its own canary).');
    expect(Object.keys(parse(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8')).jobs)).toEqual(['deploy', 'outputs']);
    expect(parse(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8')).canary).toBeUndefined();
  });

  test("GIVEN a narrowed app.allowedSourceCidrs WHEN pipeline writes THEN the canary is deployed without verify, as the shards are, and its job's timeout counts no verify", async () => {
    const dir = workspace({ config: { ...CONFIG, app: { allowedSourceCidrs: ['198.51.100.0/24'] } }, commit: true });
    const { lines } = await run(dir, ['--github-actions', '--gitlab-ci', '--shards', '2', '--dir', dir]);
    // One environment's stacks (25 min) and no verify, doubled, in half hours: 60, not the 90 of a canary that verifies.
    expect(linesBetween(lines, 'The canary:', 'verify:').join(' ')).toBe(
      'The canary: ann, the environment deploy applies first, is deployed with every stack in a job of its own (60 min at most) before the shard jobs start; ' +
        'they wait for it, and the shard that holds ann finds it applied.',
    );
    const canary = parse(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8')).jobs.canary;
    expect(JSON.stringify(canary)).not.toContain('hoplab verify');
    expect(canary['timeout-minutes']).toBe(60);
    expect(canary.steps.find((s: { uses?: string }) => s.uses?.startsWith('aws-actions/configure-aws-credentials@')).with['role-duration-seconds']).toBe(3600);
    const gitlab = parse(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8')).canary;
    expect(JSON.stringify(gitlab)).not.toContain('hoplab verify');
    expect(gitlab.timeout).toBe('60 minutes');
  });
});

describe('the branch the jobs run on', () => {
  const trustHead = (lines: string[]) => linesBetween(lines, 'GitHub Actions: the cloud roles', "  AWS, the role's trust policy").slice(2);
  const subjects = (lines: string[]) => lines.filter((l) => /^ {4}repo:/.test(l));

  test("GIVEN a clone of a repository whose default branch is trunk WHEN pipeline writes THEN the subjects name trunk, said to be origin's default branch, with no schedule note", async () => {
    const dir = clonedWorkspace('trunk');
    const { code, lines } = await run(dir, ['--github-actions', '--gitlab-ci', '--shards', '2', '--dir', dir]);
    expect(code).toBe(0);
    expect(trustHead(lines)).toEqual(["  The jobs run on the branch trunk, origin's default branch as git knows it", '  (refs/remotes/origin/HEAD).']);
    expect(subjects(lines)).toEqual(['    repo:acme/k8s-lab:ref:refs/heads/trunk', '    repo:acme/k8s-lab:environment:hoplab-teardown']);
    expect(lines).toContain('    project_path:acme/k8s-lab:ref_type:branch:ref:trunk');
    expect(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8')).toContain('cron timezone UTC; target branch trunk):');
    expect(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8')).toContain('# Run it from the branch trunk (Run workflow > Use workflow from)');
  });

  test("GIVEN that clone and --branch workshop/dec WHEN pipeline writes THEN the subjects name workshop/dec, and GitHub's schedule note says the default branch is another", async () => {
    const dir = clonedWorkspace('trunk');
    const { lines } = await run(dir, [...GITHUB, '--branch', 'workshop/dec', '--dir', dir]);
    expect(trustHead(lines)).toEqual([
      '  The jobs run on the branch workshop/dec, as given with --branch.',
      "  GitHub runs the reaper's schedule only on the default branch (not",
      "  workshop/dec), with that branch's subject: give --branch its name or admit its",
      '  subject too, or the reaper gets no credentials.',
    ]);
    expect(subjects(lines)[0]).toBe('    repo:acme/k8s-lab:ref:refs/heads/workshop/dec');
  });

  test('GIVEN --branch naming the default branch THEN no schedule note', async () => {
    const dir = clonedWorkspace('trunk');
    const { lines } = await run(dir, [...GITHUB, '--branch', 'trunk', '--dir', dir]);
    expect(trustHead(lines)).toEqual(['  The jobs run on the branch trunk, as given with --branch.']);
  });

  test('GIVEN a repository with no origin HEAD on the branch workshop-dec WHEN pipeline writes THEN the current branch, said as such', async () => {
    const dir = workspace({ commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    git(dir, 'checkout', '-q', '-b', 'workshop-dec');
    const { lines } = await run(dir, [...GITHUB, '--dir', dir]);
    expect(trustHead(lines).slice(0, 3)).toEqual([
      '  The jobs run on the branch workshop-dec, the current one: git knows no default',
      '  branch for origin (git remote set-head origin --auto asks the remote);',
      '  --branch names another.',
    ]);
    expect(subjects(lines)[0]).toBe('    repo:acme/k8s-lab:ref:refs/heads/workshop-dec');
  });

  test('GIVEN a detached HEAD and no origin HEAD WHEN pipeline writes THEN main, said as assumed', async () => {
    const dir = workspace({ commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    git(dir, 'checkout', '-q', '--detach');
    const { lines } = await run(dir, ['--gitlab-ci', '--shards', '2', '--dir', dir]);
    expect(linesBetween(lines, 'GitLab CI: the cloud roles', "  AWS, the role's trust policy").slice(2)).toEqual([
      '  The jobs run on the branch main, assumed: git knows no default branch for',
      '  origin (git remote set-head origin --auto asks the remote), and no branch is',
      '  checked out; --branch names the right one.',
    ]);
    expect(lines).toContain('    project_path:acme/k8s-lab:ref_type:branch:ref:main');
  });

  test.each([
    [['--gather', 'x', '--shards', '2', '--branch', 'main'], '--branch goes with --github-actions or --gitlab-ci: it names the branch the written jobs run on'],
    [
      ['--github-actions', '--shards', '2', '--branch', 'refs/heads/main'],
      '--branch: "refs/heads/main" is not a branch name hoplab takes: its short name (main, not refs/heads/main), of letters, digits and . _ / + -',
    ],
    [['--github-actions', '--shards', '2', '--branch', "it's"], `--branch: "it's" is not a branch name hoplab takes: its short name (main, not refs/heads/main), of letters, digits and . _ / + -`],
  ])('GIVEN %j THEN a usage error', async (argv, message) => {
    await expect(run(workspace({ repo: false }), argv)).rejects.toThrow(new UsageError(message));
  });
});

describe("hoplab's own repository", () => {
  test('GIVEN its .gitignore THEN no config file name is ignored: the CI route commits the config', () => {
    const root = join(__dirname, '../../..');
    for (const name of ['hoplab.config.json', 'hoplab.config.yaml', 'hoplab.config.yml']) {
      const ignored = spawnSync('git', ['-C', root, 'check-ignore', '--no-index', '--verbose', '--', name], { encoding: 'utf8' });
      expect({ name, rule: ignored.stdout.trim() }).toEqual({ name, rule: '' });
    }
  });
});

describe('checkConfigTracked, against real git', () => {
  test('GIVEN a committed config in a subfolder THEN the jobs would not find it: refused', () => {
    const dir = workspace({ config: null });
    mkdirSync(join(dir, 'lab'));
    writeFileSync(join(dir, 'lab', 'hoplab.config.json'), '{}');
    git(dir, 'add', 'lab/hoplab.config.json');
    git(dir, 'commit', '-q', '-m', 'x');
    expect(checkConfigTracked(join(dir, 'lab', 'hoplab.config.json')).problem).toMatch(
      /^lab\/hoplab\.config\.json is committed, but the pipelines' jobs look for hoplab\.config\.json, hoplab\.config\.yaml, hoplab\.config\.yml at the repository's root \(.+\) and would run with the defaults; move it there$/,
    );
  });

  test('GIVEN a config committed as it is THEN no problem and no note', () => {
    expect(checkConfigTracked(join(workspace({ commit: true }), 'hoplab.config.json'))).toEqual({ notes: [] });
  });

  test('GIVEN git missing THEN it says so', () => {
    expect(checkConfigTracked('/x/hoplab.config.json', () => ({ ok: false, output: 'not found on the PATH' })).problem).toBe(
      'git is not on the PATH, so whether hoplab.config.json is committed cannot be checked; install git and commit hoplab.config.json',
    );
  });
});

describe("the generated jobs' guards", () => {
  test("GIVEN HOPLAB_CONFIRM_WORKSHOP equal to workshop.name THEN the teardown's check passes, naming the file", async () => {
    const dir = workspace({ repo: false });
    expect(await run(dir, ['--confirm-workshop'], { HOPLAB_CONFIRM_WORKSHOP: 'k8s-lb-101' })).toEqual({ code: 0, lines: ['teardown confirmed: "k8s-lb-101" is workshop.name (hoplab.config.json)'] });
  });

  test.each([
    ['another name', 'k8s-lb-102', 'it names "k8s-lb-102"'],
    ['an empty variable', '', 'it names no workshop (HOPLAB_CONFIRM_WORKSHOP is empty)'],
    ['no variable', undefined, 'it names no workshop (HOPLAB_CONFIRM_WORKSHOP is empty)'],
  ])('GIVEN %s THEN the teardown is refused before anything runs', async (_what, given, named) => {
    const dir = workspace({ repo: false });
    await expect(run(dir, ['--confirm-workshop'], given === undefined ? {} : { HOPLAB_CONFIRM_WORKSHOP: given })).rejects.toThrow(
      `teardown not confirmed: ${named}, but workshop.name is "k8s-lb-101" (hoplab.config.json); nothing was torn down. ` +
        "Run it again typing the workshop's name (GitHub: the workflow's input; GitLab: the variable HOPLAB_CONFIRM_WORKSHOP in Run pipeline)",
    );
  });

  test('GIVEN no config file in the checkout THEN the refusal says the defaults were read', async () => {
    const dir = workspace({ config: null, repo: false });
    await expect(run(dir, ['--confirm-workshop'], { HOPLAB_CONFIRM_WORKSHOP: 'k8s-lb-101' })).rejects.toThrow(
      'it names "k8s-lb-101", but workshop.name is "hoplab" (no hoplab.config.json, .yaml or .yml found: the defaults)',
    );
  });

  test("GIVEN the reaper's expiry WHEN the config still says it THEN the deploy's check passes; WHEN it moved THEN refused", async () => {
    const dir = workspace({ repo: false });
    expect((await run(dir, ['--check-expiry', '2026-12-08T18:00:00Z'])).lines).toEqual([
      "workshop.expiresAt 2026-12-08T18:00:00Z is the date the reaper's schedule was written for (hoplab.config.json)",
    ]);
    await expect(run(dir, ['--check-expiry', '2026-12-01T18:00:00Z'])).rejects.toThrow(
      'workshop.expiresAt is "2026-12-08T18:00:00Z" (hoplab.config.json), but the reaper\'s schedule in these pipelines was written for 2026-12-01T18:00:00Z: ' +
        'regenerate them with the npx hoplab pipeline command their first lines name, and commit them; nothing was deployed',
    );
  });

  test('GIVEN the canary the pipelines were written for WHEN the config no longer puts it first THEN the canary job is refused before anything runs; WHEN one environment is left, that one passes', async () => {
    const dir = workspace({ repo: false });
    await expect(run(dir, ['--check-canary', 'bob'])).rejects.toThrow(
      "these pipelines deploy bob first, as the canary, but deploy would now choose ann, the config's first environment (hoplab.config.json): " +
        'regenerate them with the npx hoplab pipeline command their first lines name, and commit them; nothing was deployed',
    );
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ ...CONFIG, attendees: ['bob'] }));
    expect((await run(dir, ['--check-canary', 'bob'])).lines).toEqual(['the canary bob is the environment deploy applies first (hoplab.config.json)']);
  });

  test.each([
    [['--github-actions'], '--shards N is required with --github-actions/--gitlab-ci'],
    [['--gather', 'x'], '--shards N is required with --gather'],
    [['--shards', '2'], 'say which CI: --github-actions or --gitlab-ci'],
    [['--github-actions', '--shards', '2', '--confirm-workshop'], '--github-actions/--gitlab-ci and --confirm-workshop are separate uses; give one'],
    [['--check-expiry', '2026-12-08T18:00:00Z', '--check-canary', 'ann'], '--check-expiry and --check-canary are separate uses; give one'],
  ])('GIVEN %j THEN a usage error', async (argv, message) => {
    await expect(run(workspace({ repo: false }), argv)).rejects.toThrow(new UsageError(message));
  });
});

describe('the trust conditions', () => {
  test('GIVEN no repository known THEN placeholders, the same strings docs/workshops-and-ci.md gives', () => {
    const docs = readFileSync(join(__dirname, '../../../docs/workshops-and-ci.md'), 'utf8');
    const github = githubTrust();
    expect(github.subjects.map((s) => s.subject)).toEqual(['repo:<owner>/<repo>:ref:refs/heads/main', 'repo:<owner>/<repo>:environment:hoplab-teardown']);
    expect(github.gcpCondition).toBe("assertion.sub == 'repo:<owner>/<repo>:ref:refs/heads/main' || assertion.sub == 'repo:<owner>/<repo>:environment:hoplab-teardown'");
    const gitlab = gitlabTrust();
    expect(gitlab.subjects.map((s) => s.subject)).toEqual(['project_path:<group>/<project>:ref_type:branch:ref:main']);
    expect(gitlab.gcpCondition).toBe("assertion.sub == 'project_path:<group>/<project>:ref_type:branch:ref:main'");
    for (const text of [...github.subjects, ...gitlab.subjects].map((s) => `"${s.subject}"`)) expect(docs).toContain(text);
    for (const condition of [github.gcpCondition, gitlab.gcpCondition]) expect(docs).toContain(condition);
    for (const line of [...trustLines(github), ...trustLines(gitlab)]) expect(line.length).toBeLessThanOrEqual(80);
  });

  test.each([
    ['git@github.com:acme/k8s-lab.git', { host: 'github.com', path: 'acme/k8s-lab' }],
    ['https://github.com/acme/k8s-lab', { host: 'github.com', path: 'acme/k8s-lab' }],
    ['https://x-access-token:t@github.com/acme/k8s-lab.git/', { host: 'github.com', path: 'acme/k8s-lab' }],
    ['ssh://git@gitlab.example.com:2222/acme/labs/k8s-lab.git', { host: 'gitlab.example.com', path: 'acme/labs/k8s-lab' }],
    ['/srv/git/k8s-lab.git', undefined],
    ['github.com', undefined],
  ])('GIVEN the remote %s THEN %j', (url, expected) => {
    expect(repositoryOf(url)).toEqual(expected);
  });
});

describe("a job's time on GitHub-hosted runners", () => {
  test.each([
    // Each job one environment: its stacks (25 min), then its verify at its worst (4 plans, its exposures: 10 min).
    ['2', 90],
    // One job, both environments: their stacks side by side (25 min), then their verify (8 plans: 14 min).
    ['1', 90],
  ])('GIVEN two attendees in %s shard(s) WHEN pipeline writes THEN a shard job may take its deploy and then its verify, doubled (in half hours): %i min', async (shards, minutes) => {
    const dir = workspace({ commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    const { code, lines } = await run(dir, ['--github-actions', '--gitlab-ci', '--shards', shards, '--dir', dir]);
    expect(code).toBe(0);
    const github = parse(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8'));
    expect(github.jobs.deploy.steps.map((s: { name?: string }) => s.name)).toContain(`verify shard \${{ matrix.shard }}/${shards}`);
    expect(github.jobs.deploy['timeout-minutes']).toBe(minutes);
    expect(parse(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8'))['.hoplab-clouds'].timeout).toBe(`${minutes} minutes`);
    expect(lines.join(' ')).toContain(`each job may take ${minutes} min (twice the estimate at 4 stacks at a time)`);
  });

  test('GIVEN jobs that do not verify (a narrowed app.allowedSourceCidrs keeps a runner out) WHEN pipeline writes THEN a shard job may take its deploy alone, doubled: 60 min', async () => {
    const dir = workspace({ config: { ...CONFIG, app: { allowedSourceCidrs: ['203.0.113.0/24'] } }, commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    expect((await run(dir, [...GITHUB, '--dir', dir])).code).toBe(0);
    const github = parse(readFileSync(join(dir, '.github/workflows/hoplab-deploy.yml'), 'utf8'));
    expect(github.jobs.deploy.steps.map((s: { name?: string }) => s.name).filter((n: string | undefined) => n?.startsWith('verify'))).toEqual([]);
    expect(github.jobs.deploy['timeout-minutes']).toBe(60);
  });

  test('GIVEN 30 attendees in one shard WHEN pipeline writes THEN no job asks for more than the runners allow (6 hours), and a note says to shard more', async () => {
    const attendees = Array.from({ length: 30 }, (_, i) => `a${String(i + 1).padStart(2, '0')}`);
    const dir = workspace({ config: { ...CONFIG, attendees }, commit: true, remote: 'git@github.com:acme/k8s-lab.git' });
    const { code, lines } = await run(dir, ['--github-actions', '--shards', '1', '--dir', dir]);
    expect(code).toBe(0);
    const workflow = readFileSync(join(dir, '.github', 'workflows', 'hoplab-deploy.yml'), 'utf8');
    const timeouts = [...workflow.matchAll(/timeout-minutes: (\d+)/g)].map((m) => Number(m[1]));
    expect(timeouts.length).toBeGreaterThan(0);
    expect(Math.max(...timeouts)).toBe(360);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toMatch(
      /note: a shard is estimated at \d+ min, and its job gets at most 360 min \(GitHub-hosted runners stop a job after 6 hours\): give more --shards/,
    );
  });
});

// The linter: typescript-eslint's recommended rules, and the layer rule of
// CONTRIBUTING.md ("Layout"): imports point down the layers only, and no file
// imports itself round a circle. The plugins live in the tools/lint workspace
// (see its package.json for why), so they are loaded from there.
import { createRequire } from 'node:module';

const require = createRequire(new URL('./tools/lint/package.json', import.meta.url));
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

/**
 * Every folder under lib/, by layer, bottom first (CONTRIBUTING.md, Layout, names each one; a test,
 * test/build/layout.test.ts, keeps this table, that page and the tree equal). Each layer may import
 * the ones below it, never one above. `lib/kit` stands beside the model, on its own: it knows no lab,
 * imports nothing else in lib/, and only the lab's domain, the commands and bin/ use it.
 */
export const LIB_FOLDERS = {
  model: ['lib/model'],
  kit: ['lib/kit', 'lib/kit/cli', 'lib/kit/terminal', 'lib/kit/text', 'lib/kit/terraform', 'lib/kit/http', 'lib/kit/google', 'lib/kit/aws', 'lib/kit/svg', 'lib/kit/kubernetes'],
  config: ['lib/config'],
  constructs: ['lib/constructs', 'lib/constructs/aws', 'lib/constructs/gcp', 'lib/constructs/k8s'],
  stacks: ['lib/stacks'],
  lab: [
    'lib/lab',
    'lib/lab/anatomy',
    'lib/lab/files',
    'lib/lab/selection',
    'lib/lab/estimate',
    'lib/lab/probe',
    'lib/lab/leftovers',
    'lib/lab/checks',
    'lib/lab/pictures',
    'lib/lab/placement',
    'lib/lab/cluster',
    'lib/lab/progress',
  ],
  commands: [
    'lib/commands',
    ...['compare', 'cost', 'explain', 'handout', 'lifecycle', 'local', 'pipeline', 'preflight', 'progress', 'schema', 'synth', 'verify', 'watch'].map((c) => `lib/commands/${c}`),
  ],
};
/** The layers, bottom first: each may import the ones below it, never one above. */
const LAYERS = ['lib/model', 'lib/config', 'lib/constructs', 'lib/stacks', 'lib/lab', 'lib/commands', 'bin'];
/** The kit, and who may use it. */
const KIT = 'lib/kit';
const KIT_USERS = ['lib/lab', 'lib/commands', 'bin'];
/** Within the constructs layer, the clouds never import each other, and Kubernetes objects import neither. */
const CONSTRUCT_FOLDERS = { 'lib/constructs/aws': ['lib/constructs/gcp'], 'lib/constructs/gcp': ['lib/constructs/aws'], 'lib/constructs/k8s': ['lib/constructs/aws', 'lib/constructs/gcp'] };
/**
 * Commands do not import each other, but for these steps of one command that are commands of their own: deploy runs
 * preflight first, and verifies its canary as verify does (the same checks and report, not a copy); local ends with
 * explain's table.
 */
const COMMAND_STEPS = { 'lib/commands/lifecycle': ['lib/commands/preflight', 'lib/commands/verify'], 'lib/commands/local': ['lib/commands/explain'] };

function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, i) => {
    const above = LAYERS.slice(i + 1);
    if (above.length > 0)
      zones.push({ target: `./${layer}`, from: above.map((l) => `./${l}`), message: `${layer} is below ${above.join(', ')}: an import may only point down the layers (CONTRIBUTING.md, Layout)` });
  });
  // The kit imports nothing of the lab, and only the domain, the commands and bin/ import it.
  zones.push({ target: `./${KIT}`, from: LAYERS.map((l) => `./${l}`), message: `${KIT} knows no lab: it imports nothing else in lib/ (CONTRIBUTING.md, Layout)` });
  for (const layer of LAYERS.filter((l) => !KIT_USERS.includes(l))) {
    zones.push({ target: `./${layer}`, from: [`./${KIT}`], message: `${KIT} is used only by ${KIT_USERS.join(', ')} (CONTRIBUTING.md, Layout)` });
  }
  // config and constructs are both just above the model, side by side: constructs take narrow props and never read the user's config.
  zones.push({ target: './lib/constructs', from: ['./lib/config'], message: 'constructs never import lib/config: take narrow props (types and values from lib/model)' });
  zones.push({ target: './lib', from: ['./test', './scripts'], message: 'lib/ never imports tests or dev scripts' });
  for (const [folder, banned] of Object.entries(CONSTRUCT_FOLDERS)) {
    zones.push({ target: `./${folder}`, from: banned.map((b) => `./${b}`), message: `${folder} may not import ${banned.join(' or ')}` });
  }
  const commands = LIB_FOLDERS.commands.filter((c) => c !== 'lib/commands');
  for (const command of commands) {
    const others = commands.filter((c) => c !== command && !(COMMAND_STEPS[command] ?? []).includes(c));
    zones.push({
      target: `./${command}`,
      from: others.map((o) => `./${o}`),
      message: `commands do not import each other; share the code from lib/lab or lib/kit (allowed steps: ${JSON.stringify(COMMAND_STEPS)})`,
    });
  }
  return zones;
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'tools/lint/node_modules/**', 'dist/**', 'cdktf.out/**', 'coverage/**', '.hoplab/**', 'test/**/fixtures/**', '**/__snapshots__/**'] },
  ...tseslint.configs.recommended,
  // CommonJS dev scripts (scripts/*.cjs, test/sequencer.cjs, jest.config.js) load their modules with require().
  { files: ['**/*.cjs', 'jest.config.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.cjs', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones() }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
);

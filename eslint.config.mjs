// The linter: typescript-eslint's recommended rules, and the layer rule of
// CONTRIBUTING.md ("Layout"): imports point down the layers only, and no file
// imports itself round a circle. The plugins live in the tools/lint workspace
// (see its package.json for why), so they are loaded from there.
import { createRequire } from 'node:module';

const require = createRequire(new URL('./tools/lint/package.json', import.meta.url));
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

/** The layers, bottom first: each may import the ones below it, never one above. */
const LAYERS = ['lib/model', 'lib/config', 'lib/constructs', 'lib/stacks', 'lib/plumbing', 'lib/commands', 'bin'];
/** Within the constructs layer, the clouds never import each other, and Kubernetes objects import neither. */
const CONSTRUCT_FOLDERS = { 'lib/constructs/aws': ['lib/constructs/gcp'], 'lib/constructs/gcp': ['lib/constructs/aws'], 'lib/constructs/k8s': ['lib/constructs/aws', 'lib/constructs/gcp'] };
/** Commands do not import each other, but for these steps of one command that are commands of their own: deploy runs preflight first; local ends with explain's table. */
const COMMAND_STEPS = { 'lib/commands/lifecycle': ['lib/commands/preflight'], 'lib/commands/local': ['lib/commands/explain'] };

function layerZones(commands) {
  const zones = [];
  LAYERS.forEach((layer, i) => {
    const above = LAYERS.slice(i + 1);
    if (above.length > 0)
      zones.push({ target: `./${layer}`, from: above.map((l) => `./${l}`), message: `${layer} is below ${above.join(', ')}: an import may only point down the layers (CONTRIBUTING.md, Layout)` });
  });
  // config and constructs are both just above the model, side by side: constructs take narrow props and never read the user's config.
  zones.push({ target: './lib/constructs', from: ['./lib/config'], message: 'constructs never import lib/config: take narrow props (types and values from lib/model)' });
  zones.push({ target: './lib', from: ['./test', './scripts'], message: 'lib/ never imports tests or dev scripts' });
  for (const [folder, banned] of Object.entries(CONSTRUCT_FOLDERS)) {
    zones.push({ target: `./${folder}`, from: banned.map((b) => `./${b}`), message: `${folder} may not import ${banned.join(' or ')}` });
  }
  for (const command of commands) {
    const others = commands.filter((c) => c !== command && !(COMMAND_STEPS[command] ?? []).includes(c));
    zones.push({
      target: `./${command}`,
      from: others.map((o) => `./${o}`),
      message: `commands do not import each other; share the code from lib/plumbing (allowed steps: ${JSON.stringify(COMMAND_STEPS)})`,
    });
  }
  return zones;
}

import { readdirSync } from 'node:fs';
const commands = readdirSync(new URL('./lib/commands', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `lib/commands/${e.name}`);

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
      'import-x/no-restricted-paths': ['error', { zones: layerZones(commands) }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
);

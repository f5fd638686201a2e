/**
 * Drops exactly one warning, DEP0044 (`util.isArray` is deprecated), which Node 22 and later print
 * once per process when cdktf 0.21 synthesizes an output whose value is an object or an array
 * (`isITerraformAddressable` in cdktf/lib/terraform-output.js calls `util.isArray`; cdktf is
 * archived, so no fix comes upstream). Without this, `npm run synth`, `npx cdktf synth` and every
 * command that synthesizes print the warning on Node 22 and later (see CONTRIBUTING.md, Node versions).
 *
 * Only that code is dropped: every other warning and deprecation still prints, and
 * `--trace-deprecation`/`--throw-deprecation` are not affected for other codes. The alternatives
 * are broader: `--no-deprecation` hides every deprecation, and setting `util.isArray =
 * Array.isArray` changes a core module for all code. `node --disable-warning=DEP0044` is as
 * narrow, but only where hoplab starts node itself, not for `node dist/<command>.js`.
 */
const CODE = 'DEP0044';

const marker = Symbol.for('hoplab.dropDep0044');
const holder = process as unknown as Record<symbol, boolean>;

/** The warning's code: `emitWarning(warning, { code })`, `emitWarning(warning, type, code)`, or an Error with a code. */
function codeOf(warning: unknown, args: readonly unknown[]): unknown {
  const [first, second] = args;
  if (first !== null && typeof first === 'object') return (first as { code?: unknown }).code;
  if (typeof second === 'string') return second;
  return warning instanceof Error ? (warning as NodeJS.ErrnoException).code : undefined;
}

if (!holder[marker]) {
  holder[marker] = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...args: unknown[]): void {
    if (codeOf(warning, args) === CODE) return;
    return (emitWarning as (...a: unknown[]) => void).call(this, warning, ...args);
  } as typeof process.emitWarning;
}

export {};

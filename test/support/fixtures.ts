import { join } from 'node:path';

/** test/fixtures: inputs shared by tests of several layers (synthesized lab, outputs, echo replies, CRDs). */
export const FIXTURES = join(__dirname, '..', 'fixtures');

/** A file or folder under test/fixtures. */
export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);

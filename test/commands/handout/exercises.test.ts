/**
 * The handout's exercises as data (lib/commands/handout/exercises.ts): every
 * exercise complete, every `{{name}}` one the handout fills, every table by
 * case covering its cases; and the filling itself.
 */
import { ByCase, DATAPATH, EXERCISES, ExerciseStep, ExerciseText, HUBBLE, READINESS_GATES, SNAT } from '../../../lib/commands/handout/exercises';
import { fillExerciseText } from '../../../lib/commands/handout/handout-model';
import { DATAPLANES } from '../../../lib/model/datapaths';
import { attendeeCommandProblems } from '../../support/privileged-commands';

/** The names the handout fills, as exercises.ts documents them. */
const FILLED = [
  'ns',
  'deployment',
  'replicas',
  'port',
  'mode',
  'cloud',
  'svc',
  'curl',
  'reply',
  'native-curl',
  'gate',
  'dataplane',
  'effect',
  'inspector',
  'inspector-node',
  'inspector-sections',
  'inspector-interval',
];

const all = <T>(x: ByCase<T>, isOne: (x: ByCase<T>) => x is T): T[] => (isOne(x) ? [x] : Object.values(x));
const isText = (x: ByCase<string>): x is string => typeof x === 'string';
const stepsOf = (x: ExerciseText): ExerciseStep[] => all(x.steps, (s): s is readonly ExerciseStep[] => Array.isArray(s)).flat();

/** Every text of an exercise, tables by case included. */
function texts(x: ExerciseText): string[] {
  return [...all(x.title, isText), ...all(x.lesson, isText), ...all(x.observe, isText), ...stepsOf(x).flatMap((s) => [s.say, s.command ?? ''])];
}

describe('the exercises (data)', () => {
  test('GIVEN every exercise THEN it has an id of its own, a title, a lesson, steps, what confirms it, and what measures it', () => {
    expect(new Set(EXERCISES.map((x) => x.id)).size).toBe(EXERCISES.length);
    expect(EXERCISES.map((x) => x.id)).toEqual(['snat', 'local-health-check', 'readiness-gates', 'extra-hop', 'drain', 'datapath', 'hubble']);
    for (const x of EXERCISES) {
      expect([...all(x.title, isText), ...all(x.lesson, isText)].every((t) => t.trim() !== '')).toBe(true);
      const steps = all(x.steps, (s): s is readonly ExerciseStep[] => Array.isArray(s));
      expect(steps.every((s) => s.length > 0 && s.every((step) => step.say.trim() !== ''))).toBe(true);
      expect(x.measure.length).toBeGreaterThan(0);
      expect(x.measure.every((m) => m === 'compare' || m === 'watch')).toBe(true);
    }
    expect(EXERCISES.filter((x) => x.hostOnly).map((x) => x.id)).toEqual(['hubble']);
  });

  test('GIVEN every text THEN each {{name}} in it is one the handout fills', () => {
    const used = new Set(EXERCISES.flatMap(texts).flatMap((t) => [...t.matchAll(/\{\{([^}]*)\}\}/g)].map((m) => m[1])));
    expect([...used].filter((name) => !FILLED.includes(name))).toEqual([]);
  });

  test('GIVEN every step THEN none that leaves the attendee’s namespace or reaches past their rights in it is theirs: such steps are the host’s', () => {
    const theirs = EXERCISES.flatMap(stepsOf).filter((s) => !s.hostOnly);
    expect(theirs.map((s) => attendeeCommandProblems(s.command ?? '')).flat()).toEqual([]);
    // The guard sees the host's steps: each of them names another namespace or forwards a port.
    const hosts = EXERCISES.flatMap(stepsOf).filter((s) => s.hostOnly && s.command);
    expect(hosts.filter((s) => attendeeCommandProblems(s.command!).length > 0).length).toBeGreaterThan(0);
  });

  test('GIVEN the tables by case THEN they cover their cases: both SNAT setups and each datapath kind, every dataplane and any other, both clouds', () => {
    expect(Object.keys(SNAT.steps).sort()).toEqual(['nodeport-l4', 'nodeport-local']);
    expect(Object.keys(SNAT.observe).sort()).toEqual(['nodeport-l4', 'nodeport-local']);
    expect(Object.keys(SNAT.title).sort()).toEqual(['any-datapath', 'cilium', 'kube-proxy']);
    expect(Object.keys(SNAT.lesson).sort()).toEqual(['any-datapath', 'cilium', 'kube-proxy']);
    expect(Array.isArray(DATAPATH.steps)).toBe(true);
    expect(Object.keys(DATAPATH.observe).sort()).toEqual([...DATAPLANES, 'unknown'].sort());
    expect(Object.keys(HUBBLE.steps).sort()).toEqual(['aws', 'gcp']);
    expect(Object.keys(READINESS_GATES).sort()).toEqual(['aws', 'gcp']);
  });
});

describe('fillExerciseText', () => {
  test('GIVEN {{names}} and other braces THEN the names are filled and the rest (kubectl patch JSON, jsonpath) is left as it is', () => {
    const patch = `kubectl -n {{ns}} patch service {{svc}} -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`;
    expect(fillExerciseText(patch, { ns: 'hoplab', svc: 'echo-nodeport-local' })).toBe(`kubectl -n hoplab patch service echo-nodeport-local -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`);
    const jsonpath = `get pod <new pod> -o jsonpath='{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}'`;
    expect(fillExerciseText(jsonpath, {})).toBe(jsonpath);
  });

  test('GIVEN a {{name}} with no value THEN it is an error naming it, not a handout with braces in it', () => {
    expect(() => fillExerciseText('kubectl -n {{namespace}} get pods', { ns: 'hoplab' })).toThrow('exercises.ts: {{namespace}} has no value here (kubectl -n {{namespace}} get pods)');
  });
});

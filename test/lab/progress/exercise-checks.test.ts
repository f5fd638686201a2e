/**
 * The progress checks against the handout they check: every exercise of exercises.ts has a
 * check or an explicit "not checkable"; progress plans the exercises the handout gives, about
 * the same exposures; and each check's expected values are the ones the exercise's words use.
 */
import { validConfig } from '../../../lib/config/load';
import { buildHandout } from '../../../lib/commands/handout/handout-model';
import { DRAIN, EXERCISES, LOCAL_HEALTH_CHECK, READINESS_GATES, READINESS_GATES_EXERCISE, SNAT } from '../../../lib/commands/handout/exercises';
import { EnvironmentOutputs, parseOutputs, readOutputsFile } from '../../../lib/lab/files/outputs';
import { EXERCISE_CHECKS, healthCheckScale, RESTARTED_AT, snatFlip } from '../../../lib/lab/progress/checks';
import { hubbleClouds, plannedExercises } from '../../../lib/lab/progress/exercise-plan';
import { isReadinessGate, READINESS_GATE_CONDITION } from '../../../lib/model/readiness-gates';
import { fixture } from '../../support/fixtures';

const LAB = readOutputsFile(fixture('outputs.json')).environments[0];

/** The fixture's environment with only these exposures per cloud. */
function only(modes: { aws?: string[]; gcp?: string[] }): EnvironmentOutputs {
  const pick = (cloud: 'aws' | 'gcp', extra: string[]) => [
    ...(LAB.exposures[cloud] ?? []).filter((e) => extra.includes(e.mode)),
    ...extra.filter((m) => !(LAB.exposures[cloud] ?? []).some((e) => e.mode === m)).map((mode) => ({ ...LAB.exposures[cloud]![0], mode })),
  ];
  return { ...LAB, exposures: { ...(modes.aws ? { aws: pick('aws', modes.aws) } : {}), ...(modes.gcp ? { gcp: pick('gcp', modes.gcp) } : {}) } };
}

describe('progress checks and the handout', () => {
  test('GIVEN every exercise of exercises.ts THEN it has a check or an explicit not-checkable entry, and no check names an exercise that is not there', () => {
    expect(Object.keys(EXERCISE_CHECKS).sort()).toEqual(EXERCISES.map((x) => x.id).sort());
    const notCheckable = Object.entries(EXERCISE_CHECKS)
      .filter(([, c]) => c.kind === 'not checkable')
      .map(([id]) => id)
      .sort();
    expect(notCheckable).toEqual(['datapath', 'extra-hop', 'hubble']);
  });

  test.each([
    ['the fixture (native, nodeport, nodeport-local on both clouds)', LAB, { aws: false, gcp: false }],
    ['nodeport-l4 on GKE only', only({ aws: ['native'], gcp: ['nodeport-l4', 'nodeport-local', 'nodeport'] }), { aws: false, gcp: false }],
    ['GKE only, Hubble on', only({ gcp: ['native', 'nodeport-local'] }), { aws: false, gcp: true }],
    ['Hubble on both', LAB, { aws: true, gcp: true }],
    ['no exposures', only({}), { aws: false, gcp: false }],
  ])('GIVEN %s WHEN planned THEN progress plans the exercises the handout gives, in its order, about the same exposures', (_what, outputs, hubble) => {
    const handout = buildHandout({ outputs, replicas: 2, hubble });
    expect(plannedExercises(outputs, hubble).map((e) => [e.id, e.cloud, e.mode])).toEqual(handout.exercises.map((x) => [x.id, x.cloud, x.mode]));
  });

  test('GIVEN the config WHEN asked which clusters show Hubble THEN the handout’s own rule: Cilium with hubble on EKS, Dataplane V2 with observability on GKE', () => {
    expect(hubbleClouds(validConfig({}, 'test'))).toEqual({ aws: false, gcp: false });
    expect(hubbleClouds(validConfig({ aws: { datapath: 'cilium', cilium: { hubble: true } }, gcp: { datapath: 'dataplane-v2', observability: true } }, 'test'))).toEqual({ aws: true, gcp: true });
  });

  test('GIVEN the snat exercise’s nodeport-local case THEN the check expects the policy its steps flip to and the one they leave, and the exposure’s own', () => {
    const steps = (SNAT.steps as Record<string, readonly { command?: string }[]>)['nodeport-local'].map((s) => s.command ?? '');
    const patched = steps.flatMap((c) => [...c.matchAll(/"externalTrafficPolicy":"(\w+)"/g)].map((m) => m[1]));
    for (const cloud of ['aws', 'gcp'] as const) {
      const { flippedTo, leftAs } = snatFlip(cloud);
      expect([cloud, patched]).toEqual([cloud, [flippedTo, leftAs]]);
    }
    // nodeport-l4 is a curl only: not checkable there.
    const check = EXERCISE_CHECKS.snat;
    expect(check.kind === 'state' && check.notCheckable?.({ id: 'snat', cloud: 'aws', mode: 'nodeport-l4', case: 'nodeport-l4' })).toMatch(/a curl leaves nothing/);
    expect(check.kind === 'state' && check.notCheckable?.({ id: 'snat', cloud: 'aws', mode: 'nodeport-local', case: 'nodeport-local' })).toBeUndefined();
  });

  test('GIVEN local-health-check THEN the check expects the replica counts its steps scale to, in order: down to one, back to the lab’s', () => {
    const counts = (LOCAL_HEALTH_CHECK.steps as readonly { command?: string }[]).flatMap((s) => [...(s.command ?? '').matchAll(/--replicas=(\S+)/g)].map((m) => m[1]));
    const { downTo, backTo } = healthCheckScale(4);
    expect(counts).toEqual([String(downTo), '{{replicas}}']);
    expect(backTo).toBe(4);
  });

  test('GIVEN readiness-gates THEN its steps restart the rollout (the annotation the check looks for is kubectl rollout restart’s), and the gate the text names is the one the check reads, per cloud', () => {
    expect((READINESS_GATES_EXERCISE.steps as readonly { command?: string }[])[0].command).toMatch(/rollout restart deployment \{\{deployment\}\}/);
    expect(RESTARTED_AT).toBe('kubectl.kubernetes.io/restartedAt');
    expect(isReadinessGate('gcp', READINESS_GATES.gcp)).toBe(true);
    // The EKS gate is shown with an ellipsis for the target group's name; the check takes the prefix before it.
    expect(READINESS_GATES.aws.replace(/…$/, '')).toBe(READINESS_GATE_CONDITION.aws.type);
    expect(isReadinessGate('aws', 'target-health.elbv2.k8s.aws/k8s-hoplab-echonati-3f1c2a9b7d')).toBe(true);
  });

  test('GIVEN drain THEN its steps cordon and drain a node and put it back: the check reads nodes’ spec.unschedulable, which kubectl drain sets', () => {
    const commands = (DRAIN.steps as readonly { command?: string }[]).map((s) => s.command ?? '');
    expect(commands.some((c) => /^kubectl drain <node>/.test(c))).toBe(true);
    expect(commands.some((c) => /^kubectl uncordon <node>/.test(c))).toBe(true);
    expect(EXERCISE_CHECKS.drain).toMatchObject({ kind: 'state', needs: ['nodes', 'pods'] });
  });

  test('GIVEN outputs of an older lab without exposures THEN nothing is planned', () => {
    expect(plannedExercises(parseOutputs({ 'x-aws-cluster': { cluster_name: 'x-eks' } }, 'test').environments[0], { aws: false, gcp: false })).toEqual([]);
  });
});

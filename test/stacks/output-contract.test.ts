import { App, Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { AWS_CLUSTER_OUTPUT_DESCRIPTIONS, GCP_CLUSTER_OUTPUT_DESCRIPTIONS } from '../../lib/model/contract';
import { addLab } from '../../lib/stacks/hoplab-app';
import { Synthesized } from '../support/synth';

describe('the output contract of the synthesized stacks', () => {
  const app = new App({ outdir: Testing.app().outdir, stackTraces: false });
  const [lab] = addLab(app, validConfig({}, 'test'));
  const outputs = (stack: Parameters<typeof Testing.synth>[0]) => {
    stack.prepareStack();
    return (JSON.parse(Testing.synth(stack)) as Synthesized).output;
  };

  test.each([
    ['aws-cluster', () => outputs(lab.awsCluster), AWS_CLUSTER_OUTPUT_DESCRIPTIONS],
    ['gcp-cluster', () => outputs(lab.gcpCluster), GCP_CLUSTER_OUTPUT_DESCRIPTIONS],
  ] as const)('GIVEN the default lab WHEN %s is synthesized THEN it exports exactly the typed outputs, each with its description', (_kind, synth, descriptions) => {
    const synthesized = synth();
    expect(Object.keys(synthesized).sort()).toEqual(Object.keys(descriptions).sort());
    for (const [name, output] of Object.entries(synthesized)) expect(output.description).toBe((descriptions as Record<string, string>)[name]);
  });

  test.each([
    ['aws-lb', () => outputs(lab.awsLb), 'EKS'],
    ['gcp-lb', () => outputs(lab.gcpLb), 'GKE'],
  ] as const)('GIVEN the default lab WHEN %s is synthesized THEN every exposure output says which exposure of which environment it is', (_kind, synth, platform) => {
    for (const [name, output] of Object.entries(synth())) {
      expect(output.description).toBe(`The ${output.value.mode} exposure of lab on ${platform}`);
      expect(name).toBe(`exposure_${output.value.mode.replace(/-/g, '_')}`);
    }
  });
});

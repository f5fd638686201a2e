import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { addLab } from '../../lib/stacks/hoplab-app';

type StackJson = {
  terraform: { backend?: Record<string, Record<string, unknown>> };
  provider: Record<string, Record<string, unknown>[]>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
};

/** Synthesizes the whole app for `raw` and returns each stack's cdk.tf.json by stack name. */
function synthApp(raw: Record<string, unknown>): Record<string, StackJson> {
  const app = new App({ outdir: Testing.app().outdir, stackTraces: false });
  const envs = addLab(app, validConfig(raw, 'test'));
  app.synth();
  const stacks: Record<string, StackJson> = {};
  for (const env of envs) {
    for (const stack of [env.awsCluster, env.awsLb, env.gcpCluster, env.gcpLb]) {
      const name = stack.node.id;
      stacks[name] = JSON.parse(readFileSync(join(app.outdir, 'stacks', name, 'cdk.tf.json'), 'utf8'));
    }
  }
  return stacks;
}

const WORKSHOP = { name: 'k8s-net-101', owner: 'jane-doe', expiresAt: '2026-12-01T18:00:00Z' };

describe('a workshop of several attendees', () => {
  test('GIVEN three attendees WHEN synthesized THEN each gets its own four stacks, named after them', () => {
    expect(Object.keys(synthApp({ attendees: ['ann', 'bob', 'cy'] })).sort()).toEqual(
      ['ann', 'bob', 'cy'].flatMap((a) => [`${a}-aws-cluster`, `${a}-aws-lb`, `${a}-gcp-cluster`, `${a}-gcp-lb`]).sort(),
    );
  });

  test('GIVEN no attendees WHEN synthesized THEN one environment is named after `name`', () => {
    expect(Object.keys(synthApp({ name: 'solo' })).sort()).toEqual(['solo-aws-cluster', 'solo-aws-lb', 'solo-gcp-cluster', 'solo-gcp-lb']);
  });

  test('GIVEN workshop settings WHEN synthesized THEN every AWS stack tags everything with environment, workshop, owner and expiry', () => {
    const stacks = synthApp({ attendees: ['ann'], workshop: WORKSHOP });
    expect(stacks['ann-aws-cluster'].provider.aws[0].default_tags).toEqual([
      {
        tags: {
          'hoplab-env': 'ann',
          'hoplab-workshop': 'k8s-net-101',
          'hoplab-owner': 'jane-doe',
          'hoplab-expires': '2026-12-01T18:00:00Z',
          'hoplab-stack': 'ann-aws-cluster',
          'managed-by': 'hoplab',
        },
      },
    ]);
  });

  test('GIVEN workshop settings WHEN synthesized THEN the GKE cluster stack labels everything, with the expiry in label-safe form', () => {
    const stacks = synthApp({ attendees: ['ann'], workshop: WORKSHOP });
    expect(stacks['ann-gcp-cluster'].provider.google[0].default_labels).toEqual({
      'hoplab-env': 'ann',
      'hoplab-workshop': 'k8s-net-101',
      'hoplab-owner': 'jane-doe',
      'hoplab-expires': '2026-12-01t18-00-00z',
      'hoplab-stack': 'ann-gcp-cluster',
      'managed-by': 'hoplab',
    });
  });

  test('GIVEN the default backend WHEN synthesized THEN each stack keeps local state of its own', () => {
    const stacks = synthApp({});
    const paths = Object.values(stacks).map((s) => s.terraform.backend?.local?.path);
    expect(paths.map((p) => String(p).split('/').pop()).sort()).toEqual([
      'terraform.lab-aws-cluster.tfstate',
      'terraform.lab-aws-lb.tfstate',
      'terraform.lab-gcp-cluster.tfstate',
      'terraform.lab-gcp-lb.tfstate',
    ]);
  });

  test('GIVEN an S3 backend WHEN synthesized THEN each stack has its own key, encryption and the native lock file, and lb stacks read cluster state from S3', () => {
    const stacks = synthApp({ attendees: ['ann', 'bob'], backend: { type: 's3', bucket: 'ws-state', region: 'eu-west-1', keyPrefix: 'workshops/2026-12' } });
    for (const [name, stack] of Object.entries(stacks)) {
      expect(stack.terraform.backend).toEqual({ s3: { bucket: 'ws-state', region: 'eu-west-1', key: `workshops/2026-12/${name}.tfstate`, encrypt: true, use_lockfile: true } });
    }
    const remote = Object.values(stacks['bob-aws-lb'].data?.terraform_remote_state ?? {});
    expect(remote).toEqual([expect.objectContaining({ backend: 's3', config: expect.objectContaining({ bucket: 'ws-state', key: 'workshops/2026-12/bob-aws-cluster.tfstate' }) })]);
  });

  test('GIVEN a GCS backend WHEN synthesized THEN each stack has its own prefix', () => {
    const stacks = synthApp({ backend: { type: 'gcs', bucket: 'ws-state' } });
    expect(stacks['lab-gcp-lb'].terraform.backend).toEqual({ gcs: { bucket: 'ws-state', prefix: 'hoplab/lab-gcp-lb' } });
    expect(stacks['lab-aws-cluster'].terraform.backend).toEqual({ gcs: { bucket: 'ws-state', prefix: 'hoplab/lab-aws-cluster' } });
  });

  test('GIVEN two attendees WHEN synthesized THEN no AWS stack references another cloud or attendee', () => {
    const stacks = synthApp({ attendees: ['ann', 'bob'] });
    for (const [name, stack] of Object.entries(stacks)) {
      const text = JSON.stringify(stack);
      const env = name.split('-')[0];
      const other = env === 'ann' ? 'bob' : 'ann';
      expect([name, text.includes(`${other}-`)]).toEqual([name, false]);
      if (name.includes('-aws-')) expect([name, text.includes('-gcp-cluster')]).toEqual([name, false]);
      if (name.includes('-gcp-')) expect([name, text.includes('-aws-cluster')]).toEqual([name, false]);
    }
  });
});

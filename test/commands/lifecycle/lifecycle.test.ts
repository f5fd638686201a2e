import { validConfig } from '../../../lib/config/load';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLifecycleRequest, providerMirrorFor, runLifecycle } from '../../../lib/commands/lifecycle/lifecycle';
import { selectEnvironments } from '../../../lib/lab/selection/selection';

describe('runLifecycle guards', () => {
  test.each([
    ['aws', ['aws-cluster', 'gcp-cluster', 'gcp-lb']],
    ['gcp', ['gcp-cluster']],
  ] as const)('GIVEN a real teardown of %s-cluster without its lb stack WHEN run THEN it refuses before touching anything', async (cloud, kinds) => {
    await expect(runLifecycle('destroy', { config: validConfig({ gcp: { project: 'acme-lab-1' } }, 'test'), kinds: [...kinds], write: () => undefined })).rejects.toThrow(
      `--stacks: destroying ${cloud}-cluster without ${cloud}-lb would strand the load balancers its controller made (and block deleting the network); add ${cloud}-lb (it is destroyed first)`,
    );
  });

  test.each(['deploy', 'destroy'] as const)('GIVEN the placeholder GCP project WHEN a GCP stack would %s THEN it refuses and says how to fix it', async (direction) => {
    await expect(runLifecycle(direction, { config: validConfig({}, 'test'), kinds: ['gcp-cluster', 'gcp-lb'], write: () => undefined })).rejects.toThrow(
      'gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config; set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
    );
  });

  test('GIVEN the emulator WHEN any stack but aws-cluster is asked for THEN it refuses', async () => {
    await expect(runLifecycle('deploy', { config: validConfig({}, 'test'), kinds: ['aws-cluster', 'aws-lb'], awsEndpoint: 'http://127.0.0.1:1', write: () => undefined })).rejects.toThrow(
      "HOPLAB_AWS_ENDPOINT is set (emulator mode; state in .hoplab/emulator/ or the emulator's S3, never the real state): only the aws-cluster stacks can run against the emulator; add --stacks aws-cluster to run them there, or unset HOPLAB_AWS_ENDPOINT for the real clouds",
    );
  });
});

describe('selectEnvironments', () => {
  test('GIVEN attendees WHEN --env picks some THEN only those, and an unknown one is named', () => {
    const config = validConfig({ attendees: ['ann', 'bob', 'cy'] }, 'test');
    expect(selectEnvironments(config)).toEqual(['ann', 'bob', 'cy']);
    expect(selectEnvironments(config, ['cy'])).toEqual(['cy']);
    expect(() => selectEnvironments(config, ['cy', 'dan'])).toThrow('--env: "dan" not in this config; environments: ann, bob, cy');
  });
});

describe('providerMirrorFor', () => {
  const mirrorDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-mirror-'));
    mkdirSync(join(dir, 'registry.terraform.io', 'hashicorp', 'aws', '5.100.0'), { recursive: true });
    return dir;
  };

  test('GIVEN HOPLAB_PROVIDER_MIRROR set WHEN a real run (no emulator) picks its providers THEN the registry is used, not the mirror', () => {
    expect(providerMirrorFor(undefined, { HOPLAB_PROVIDER_MIRROR: mirrorDir() })).toBeUndefined();
  });

  test('GIVEN HOPLAB_PROVIDER_MIRROR set WHEN an emulator run picks its providers THEN the mirror is used', () => {
    const dir = mirrorDir();
    expect(providerMirrorFor('http://127.0.0.1:5000', { HOPLAB_PROVIDER_MIRROR: dir })).toBe(dir);
  });
});

describe('world-open API endpoints', () => {
  const ALL = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;
  const config = (extra: Record<string, unknown> = {}) => validConfig({ gcp: { project: 'acme-lab-1' }, ...extra }, 'test');

  test('GIVEN the default endpoint CIDRs WHEN a real deploy is asked for THEN it refuses, naming both fields and how to find your address', () => {
    expect(() => checkLifecycleRequest('deploy', [...ALL], undefined, config())).toThrow(
      'aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) and gcp.masterAuthorizedCidrs (["0.0.0.0/0"]) would open the cluster API endpoints to any address on the internet; ' +
        'set them to the addresses you and the attendees deploy and run kubectl from, e.g. your own as "<ip>/32" (curl https://checkip.amazonaws.com shows it), ' +
        'or set allowWorldOpenEndpoints: true in the config to deploy them open',
    );
  });

  test('GIVEN only AWS stacks WHEN a real deploy is asked for THEN only the AWS field is named', () => {
    expect(() => checkLifecycleRequest('deploy', ['aws-cluster', 'aws-lb'], undefined, config())).toThrow(
      'aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) would open the cluster API endpoint to any address on the internet; ',
    );
  });

  test.each([
    ['allowWorldOpenEndpoints: true', 'deploy', undefined, { allowWorldOpenEndpoints: true }],
    ['restricted CIDRs', 'deploy', undefined, { aws: { endpointPublicAccessCidrs: ['203.0.113.7/32'] }, gcp: { project: 'acme-lab-1', masterAuthorizedCidrs: ['203.0.113.7/32'] } }],
    ['the emulator', 'deploy', 'http://127.0.0.1:5000', {}],
    ['a teardown', 'destroy', undefined, {}],
  ] as const)('GIVEN %s WHEN checked THEN it goes ahead', (_name, direction, endpoint, extra) => {
    const kinds = endpoint ? ['aws-cluster' as const] : [...ALL];
    expect(() => checkLifecycleRequest(direction, kinds, endpoint, config(extra as Record<string, unknown>))).not.toThrow();
  });
});

describe('every reason a request is refused, at once', () => {
  const ALL = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;

  test('GIVEN the placeholder (default) config WHEN a real deploy is asked for THEN one refusal lists the placeholder project and the world-open endpoints', () => {
    expect(() => checkLifecycleRequest('deploy', [...ALL], undefined, validConfig({}, 'test'))).toThrow(
      [
        'deploy refused before anything ran: 2 problems, fix all of them:',
        '  - gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config; set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
        '  - aws.endpointPublicAccessCidrs (["0.0.0.0/0"]) and gcp.masterAuthorizedCidrs (["0.0.0.0/0"]) would open the cluster API endpoints to any address on the internet; ' +
          'set them to the addresses you and the attendees deploy and run kubectl from, e.g. your own as "<ip>/32" (curl https://checkip.amazonaws.com shows it), ' +
          'or set allowWorldOpenEndpoints: true in the config to deploy them open',
      ].join('\n'),
    );
  });

  test('GIVEN a shard on local state and the placeholder project WHEN a teardown of a cluster without its lb is asked for THEN all three are named', () => {
    expect(() => checkLifecycleRequest('destroy', ['gcp-cluster'], undefined, validConfig({}, 'test'), { index: 1, total: 2 })).toThrow(
      [
        'teardown refused before anything ran: 3 problems, fix all of them:',
        '  - --shard 1/2: backend.type is "local", but shards run on different machines (CI runners), each with its own disk: their state files would be lost with the runner, and a later teardown or another shard could not find them; ' +
          'set backend to { "type": "s3", "bucket": ..., "region": ... } (locked with its lock file) or { "type": "gcs", "bucket": ... }',
        '  - gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config; set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
        '  - --stacks: destroying gcp-cluster without gcp-lb would strand the load balancers its controller made (and block deleting the network); add gcp-lb (it is destroyed first)',
      ].join('\n'),
    );
  });
});

describe('a workshop past its expiry', () => {
  const config = validConfig({ gcp: { project: 'acme-lab-1' }, allowWorldOpenEndpoints: true, workshop: { expiresAt: '2026-12-07T09:59:00Z' } }, 'test');
  const ALL = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;

  test.each([
    ['a real deploy', undefined],
    ['an emulator deploy', 'http://127.0.0.1:5000'],
  ])('GIVEN %s a minute after workshop.expiresAt WHEN checked THEN it is refused, with an example expiry from the same clock', (_name, endpoint) => {
    const kinds = endpoint ? ['aws-cluster' as const] : [...ALL];
    expect(() => checkLifecycleRequest('deploy', kinds, endpoint, config, undefined, new Date('2026-12-07T10:00:00Z'))).toThrow(
      'workshop.expiresAt ("2026-12-07T09:59:00Z") has passed (it is 2026-12-07T10:00Z now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists; ' +
        'set workshop.expiresAt to when this workshop ends, e.g. "2026-12-08T18:00:00Z"',
    );
  });

  test('GIVEN a minute before workshop.expiresAt WHEN a deploy is checked THEN it goes ahead; GIVEN after it WHEN a teardown is checked THEN it goes ahead', () => {
    expect(() => checkLifecycleRequest('deploy', [...ALL], undefined, config, undefined, new Date('2026-12-07T09:58:00Z'))).not.toThrow();
    expect(() => checkLifecycleRequest('destroy', [...ALL], undefined, config, undefined, new Date('2026-12-07T10:00:00Z'))).not.toThrow();
  });
});

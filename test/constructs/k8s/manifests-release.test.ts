import { Testing } from 'cdktf';
import { parse } from 'yaml';
import { GatewayApiCrds } from '../../../lib/constructs/k8s/gateway-api-crds';
import { ManifestsRelease, ManifestsReleaseProps } from '../../../lib/constructs/k8s/manifests-release';
import { Json } from '../../support/synth';

const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'hoplab' }, data: { a: '1' } };

function synth(props: Partial<ManifestsReleaseProps> = {}) {
  return JSON.parse(
    Testing.synthScope((scope) => {
      new ManifestsRelease(scope, 'objects', { releaseName: 'echo-gateway', namespace: 'hoplab', manifests: [object], ...props });
    }),
  );
}

describe('ManifestsRelease', () => {
  test('GIVEN objects THEN one helm_release of the local hoplab-manifests chart carries them as values, waiting on install and uninstall', () => {
    const [release] = Object.values(synth().resource.helm_release) as Record<string, Json>[];
    expect(release).toMatchObject({ name: 'echo-gateway', namespace: 'hoplab', wait: true, atomic: true, cleanup_on_fail: true, timeout: 900 });
    expect(release.chart).toMatch(/^\.\.\/\.\.\/charts\/hoplab-manifests-[0-9A-F]{32}$/);
    expect(parse(release.values[0])).toEqual({ manifests: [object] });
  });

  test.each([
    [{ releaseName: 'Echo_Gateway' }, 'ManifestsRelease objects: releaseName "Echo_Gateway" is not a Helm release name; use a DNS label of at most 53 characters'],
    [{ manifests: [] }, 'ManifestsRelease objects: no manifests given; pass at least one object'],
  ])('GIVEN %j THEN synth stops with a clear message', (props, message) => {
    expect(() => synth(props)).toThrow(message);
  });
});

describe('GatewayApiCrds', () => {
  test('GIVEN the defaults THEN a helm_release of the local gateway-api-crds chart in kube-system', () => {
    const json = JSON.parse(Testing.synthScope((scope) => void new GatewayApiCrds(scope, 'crds')));
    const [release] = Object.values(json.resource.helm_release) as Record<string, Json>[];
    expect(release).toMatchObject({ name: 'gateway-api-crds', namespace: 'kube-system', wait: true });
    expect(release.chart).toMatch(/^\.\.\/\.\.\/charts\/gateway-api-crds-[0-9A-F]{32}$/);
    expect(release.values).toBeUndefined();
  });
});

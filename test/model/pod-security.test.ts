import { DemoApp } from '../../lib/constructs/k8s/demo-app';
import { APP_NAMESPACE_POD_SECURITY, podSecurityLabels, podSecurityVersion } from '../../lib/model/pod-security';
import { kubernetesObjects } from '../support/k8s-objects';
import { baselineViolations, restrictedViolations } from '../support/pod-security-standard';
import { Json, synthScope } from '../support/synth';

describe('Pod Security labels', () => {
  test.each([
    ['1.34', 'v1.34'],
    ['1.31', 'v1.31'],
    ['1.33.5-gke.1000', 'v1.33'],
    ['v1.35.0', 'v1.35'],
    ['latest', undefined],
    ['1', undefined],
  ])('GIVEN Kubernetes version %s WHEN pinned THEN the Pod Security version is %s', (version, expected) => {
    expect(podSecurityVersion(version)).toBe(expected);
  });

  test('GIVEN a level and version WHEN labelled THEN enforce, warn and audit each carry the level and the pinned version', () => {
    expect(podSecurityLabels('baseline', 'v1.34')).toEqual({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/enforce-version': 'v1.34',
      'pod-security.kubernetes.io/warn': 'baseline',
      'pod-security.kubernetes.io/warn-version': 'v1.34',
      'pod-security.kubernetes.io/audit': 'baseline',
      'pod-security.kubernetes.io/audit-version': 'v1.34',
    });
    expect(APP_NAMESPACE_POD_SECURITY).toBe('baseline');
  });
});

describe('the demo app under Pod Security', () => {
  const pod = (): Json => {
    const { parsed } = synthScope((scope) => {
      new DemoApp(scope, 'app', { namespace: 'hoplab', image: 'registry.k8s.io/echoserver:1.10', replicas: 2 });
    });
    return (kubernetesObjects(parsed).find((o) => o.object.kind === 'Deployment')!.object as Json).spec.template.spec;
  };

  test('GIVEN the demo app’s Pod WHEN held to baseline THEN nothing is refused: it runs in namespace hoplab as it is', () => {
    expect(baselineViolations(pod())).toEqual([]);
  });

  test('GIVEN the demo app’s Pod WHEN held to restricted THEN it would need to run as non-root, which the echo image (nginx started as root) is not shown to do: why hoplab enforces baseline, not restricted', () => {
    expect(restrictedViolations(pod())).toEqual(['Running as Non-root: echo', 'Seccomp: echo has no RuntimeDefault or Localhost profile', 'Capabilities: echo does not drop ALL']);
  });

  test('GIVEN a Pod with what `kubectl debug node/... --profile=sysadmin` makes WHEN held to baseline THEN it is refused: host namespaces, privileged, the node’s root as a host path', () => {
    // kubectl's sysadmin profile (k8s.io/kubectl pkg/cmd/debug/profiles.go): hostNetwork, hostPID, hostIPC, privileged, the node's / at /host.
    const debug = {
      hostNetwork: true,
      hostPID: true,
      hostIPC: true,
      volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
      containers: [{ name: 'debugger', image: 'busybox', securityContext: { privileged: true }, volumeMounts: [{ name: 'host-root', mountPath: '/host' }] }],
    };
    expect(baselineViolations(debug)).toEqual([
      'Host Namespaces: hostNetwork',
      'Host Namespaces: hostPID',
      'Host Namespaces: hostIPC',
      'HostPath Volumes: host-root',
      'Privileged Containers: debugger',
    ]);
  });
});

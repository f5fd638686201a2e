import { ServiceAccountV1 } from '@cdktf/provider-kubernetes/lib/service-account-v1';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { TerraformStack, Testing } from 'cdktf';
import { AttendeeServiceAccount } from '../../../lib/constructs/k8s/attendee-service-account';
import { kubernetesObjects } from '../../support/k8s-objects';
import { Synthesized } from '../../support/synth';

function synth() {
  const stack = new TerraformStack(Testing.app(), 'test');
  new KubernetesProvider(stack, 'k8s', {});
  new AttendeeServiceAccount(stack, 'attendee-service-account', { name: 'hoplab-attendee', namespace: 'hoplab', attendee: 'dee' });
  const json = Testing.synth(stack);
  return { json, parsed: JSON.parse(json) as Synthesized };
}

describe('AttendeeServiceAccount', () => {
  test('GIVEN an attendee without a cloud identity WHEN synthesized THEN one ServiceAccount in the app namespace that mounts no token into Pods, labelled with the attendee', () => {
    const { json } = synth();
    expect(json).toHaveResourceWithProperties(ServiceAccountV1, {
      metadata: { name: 'hoplab-attendee', namespace: 'hoplab', labels: { 'app.kubernetes.io/part-of': 'hoplab', 'app.kubernetes.io/component': 'attendee-access', 'hoplab.dev/attendee': 'dee' } },
      automount_service_account_token: false,
    });
  });

  test('GIVEN the synthesized stack THEN no credential is a resource: no token Secret, nothing but the ServiceAccount, and it is a valid object', () => {
    const { parsed } = synth();
    expect(Object.keys(parsed.resource)).toEqual(['kubernetes_service_account_v1']);
    expect(JSON.stringify(parsed)).not.toMatch(/secret|token_request|kubernetes\.io\/service-account-token/i);
    for (const object of kubernetesObjects(parsed)) expect(() => object.validate()).not.toThrow();
  });
});

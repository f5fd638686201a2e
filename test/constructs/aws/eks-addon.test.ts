import { EksAddon as EksAddonResource } from '@cdktf/provider-aws/lib/eks-addon';
import { Testing } from 'cdktf';
import { EksAddon } from '../../../lib/constructs/aws/eks-addon';

describe('EksAddon', () => {
  test('GIVEN a name and an IRSA role WHEN synthesized THEN EKS owns the add-on config on create and update', () => {
    const json = Testing.synthScope((scope) => {
      new EksAddon(scope, 'cni', { clusterName: 'lab-eks', addonName: 'vpc-cni', serviceAccountRoleArn: 'arn:aws:iam::1:role/cni' });
    });
    expect(json).toHaveResourceWithProperties(EksAddonResource, {
      cluster_name: 'lab-eks',
      addon_name: 'vpc-cni',
      service_account_role_arn: 'arn:aws:iam::1:role/cni',
      resolve_conflicts_on_create: 'OVERWRITE',
      resolve_conflicts_on_update: 'OVERWRITE',
    });
  });

  test('GIVEN no version WHEN synthesized THEN EKS picks the default for the cluster version', () => {
    const json = Testing.synthScope((scope) => {
      new EksAddon(scope, 'dns', { clusterName: 'lab-eks', addonName: 'coredns' });
    });
    const addon = Object.values(JSON.parse(json).resource.aws_eks_addon)[0] as Record<string, unknown>;
    expect(addon.addon_version).toBeUndefined();
    expect(addon.service_account_role_arn).toBeUndefined();
  });
});

describe('EksAddon configuration values', () => {
  test('GIVEN configuration values WHEN synthesized THEN they are passed to EKS as given', () => {
    const json = Testing.synthScope((scope) => {
      new EksAddon(scope, 'kp', { clusterName: 'lab-eks', addonName: 'kube-proxy', configurationValues: '{"mode":"ipvs","ipvs":{"scheduler":"rr"}}' });
    });
    expect(json).toHaveResourceWithProperties(EksAddonResource, { addon_name: 'kube-proxy', configuration_values: '{"mode":"ipvs","ipvs":{"scheduler":"rr"}}' });
  });
});

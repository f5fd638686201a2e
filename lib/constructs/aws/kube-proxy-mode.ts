/**
 * kube-proxy's mode on EKS: the managed add-on's configuration values, and the
 * node user data IPVS needs. Field names follow the kube-proxy add-on's
 * published configuration schema (`aws eks describe-addon-configuration
 * --addon-name kube-proxy`): `mode` (iptables, ipvs, nftables) and `ipvs.scheduler`.
 */
import { IPVS_SCHEDULER } from '../../model/datapaths';

/** kube-proxy modes the add-on offers. */
export type KubeProxyMode = 'iptables' | 'nftables' | 'ipvs';

/** The kernel modules IPVS mode needs on the nodes: the core, the schedulers kube-proxy may use, and conntrack. */
export const IPVS_KERNEL_MODULES = ['ip_vs', 'ip_vs_rr', 'ip_vs_wrr', 'ip_vs_sh', 'nf_conntrack'] as const;

/** MIME boundary of the node user data. */
export const USER_DATA_BOUNDARY = '==HOPLAB==';

/** The kube-proxy add-on's `configuration_values` for a mode: the mode always, the scheduler for IPVS. */
export function kubeProxyConfigurationValues(mode: KubeProxyMode): string {
  return JSON.stringify(mode === 'ipvs' ? { mode, ipvs: { scheduler: IPVS_SCHEDULER } } : { mode });
}

/**
 * Node user data for IPVS on Amazon Linux 2023: a MIME multipart document (the
 * form nodeadm and EKS accept; EKS adds its NodeConfig part) with one shell
 * script that loads the IPVS modules now and on every boot. AL2023 runs user
 * data scripts before `nodeadm-run` starts the kubelet, so kube-proxy finds the
 * modules loaded.
 */
export function ipvsUserData(): string {
  const modules = IPVS_KERNEL_MODULES.join('\n');
  return [
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${USER_DATA_BOUNDARY}"`,
    '',
    `--${USER_DATA_BOUNDARY}`,
    'Content-Type: text/x-shellscript; charset="us-ascii"',
    '',
    '#!/bin/bash',
    '# hoplab: kernel modules for kube-proxy in IPVS mode',
    'set -euo pipefail',
    "cat > /etc/modules-load.d/ipvs.conf <<'EOF'",
    modules,
    'EOF',
    `for module in ${IPVS_KERNEL_MODULES.join(' ')}; do modprobe "$module"; done`,
    '',
    `--${USER_DATA_BOUNDARY}--`,
    '',
  ].join('\n');
}

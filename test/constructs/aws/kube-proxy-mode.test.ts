import { IPVS_KERNEL_MODULES, ipvsUserData, kubeProxyConfigurationValues } from '../../../lib/constructs/aws/kube-proxy-mode';

describe('kube-proxy mode', () => {
  test.each([
    ['iptables', { mode: 'iptables' }],
    ['nftables', { mode: 'nftables' }],
    ['ipvs', { mode: 'ipvs', ipvs: { scheduler: 'rr' } }],
  ] as const)('GIVEN mode %s WHEN the add-on configuration is built THEN it uses the schema fields mode and ipvs.scheduler: %j', (mode, expected) => {
    expect(JSON.parse(kubeProxyConfigurationValues(mode))).toEqual(expected);
  });

  test('GIVEN IPVS WHEN the node user data is built THEN it is MIME multipart with one shell script that loads every IPVS module now and at boot', () => {
    const text = ipvsUserData();
    expect(text.split('\n').slice(0, 6)).toEqual([
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="==HOPLAB=="',
      '',
      '--==HOPLAB==',
      'Content-Type: text/x-shellscript; charset="us-ascii"',
      '',
    ]);
    expect(text).toContain(`cat > /etc/modules-load.d/ipvs.conf <<'EOF'\nip_vs\nip_vs_rr\nip_vs_wrr\nip_vs_sh\nnf_conntrack\nEOF\n`);
    expect(text).toContain('for module in ip_vs ip_vs_rr ip_vs_wrr ip_vs_sh nf_conntrack; do modprobe "$module"; done');
    expect(text.trimEnd().endsWith('--==HOPLAB==--')).toBe(true);
    expect(IPVS_KERNEL_MODULES).toContain('ip_vs_rr');
  });
});

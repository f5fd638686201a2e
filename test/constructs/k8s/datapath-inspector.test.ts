import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatapathInspector, INSPECTOR_CAPABILITIES } from '../../../lib/constructs/k8s/datapath-inspector';
import { DATAPLANES, Dataplane } from '../../../lib/model/datapaths';
import { INSPECTOR_DUMP_MARKER, INSPECTOR_NAMESPACE, inspectorLogCommands, inspectorScript, inspectorSections } from '../../../lib/model/inspector';
import { podSecurityLabels } from '../../../lib/model/pod-security';
import { CILIUM_AGENT_IMAGE } from '../../../lib/model/versions';
import { kubernetesObjects } from '../../support/k8s-objects';
import { baselineViolations } from '../../support/pod-security-standard';
import { Json, synthScope } from '../../support/synth';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'inspector');

function synth(dataplane: Dataplane) {
  const { parsed } = synthScope((scope) => {
    new DatapathInspector(scope, 'inspector', { dataplane, image: CILIUM_AGENT_IMAGE, appNamespace: 'hoplab', appPort: 8080, podSecurityVersion: 'v1.34' });
  });
  const objects = kubernetesObjects(parsed);
  const daemonSet = objects.find((o) => o.object.kind === 'DaemonSet')!.object as Json;
  const namespace = objects.find((o) => o.object.kind === 'Namespace')!.object as Json;
  return { objects, daemonSet, pod: daemonSet.spec.template.spec, container: daemonSet.spec.template.spec.containers[0], namespace };
}

/**
 * Runs the inspector's script once with real bash, grep and awk, the node's
 * tools replaced by scripts that print the fixtures, and `sleep` by one that
 * ends the loop: what one dump prints.
 */
function runOnce(dataplane: Dataplane): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-inspector-'));
  try {
    const tool = (name: string, body: string) => {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    };
    tool('iptables-legacy-save', 'exit 0');
    tool('iptables-nft-save', `cat '${join(FIXTURES, 'iptables-nft-save.txt')}'`);
    tool('cilium-dbg', `[ "$1 $2" = "service list" ] && cat '${join(FIXTURES, 'cilium-service-list.txt')}'`);
    tool('sleep', 'kill -TERM $PPID');
    copyFileSync(join(FIXTURES, 'ip_vs'), join(dir, 'ip_vs'));
    copyFileSync(join(FIXTURES, 'nf_conntrack'), join(dir, 'nf_conntrack'));
    const run = spawnSync('/bin/bash', ['-c', inspectorScript(dataplane, 'hoplab', 8080)], {
      encoding: 'utf8',
      env: { PATH: `${dir}:/usr/bin:/bin`, NODE_NAME: 'ip-10-0-1-20.ec2.internal', PROC_NET: dir },
    });
    return run.stdout.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, '<time>');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One dump as the script prints it: the marker line with the node, then the lines. */
const dump = (...lines: string[]) => [`${INSPECTOR_DUMP_MARKER} ip-10-0-1-20.ec2.internal <time> ===`, ...lines, ''].join('\n');

describe('DatapathInspector', () => {
  test.each([...DATAPLANES])('GIVEN %s WHEN synthesized THEN the namespace and DaemonSet are valid against the Kubernetes API schema, the namespace alone privileged', (dataplane) => {
    const { objects, namespace } = synth(dataplane);
    expect(objects.map((o) => o.object.kind).sort()).toEqual(['DaemonSet', 'Namespace']);
    for (const object of objects) expect(() => object.validate()).not.toThrow();
    expect(namespace.metadata).toEqual({ name: INSPECTOR_NAMESPACE, labels: { 'app.kubernetes.io/part-of': 'hoplab', ...podSecurityLabels('privileged', 'v1.34') } });
  });

  test.each([...DATAPLANES])(
    'GIVEN %s WHEN its Pod is read THEN it holds least privilege: no service-account token, read-only root, no escalation, RuntimeDefault seccomp, every capability dropped but what its tools need, the image pinned by digest',
    (dataplane) => {
      const { pod, container } = synth(dataplane);
      const kubeProxy = dataplane !== 'cilium-ebpf';
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.image).toBe(CILIUM_AGENT_IMAGE);
      expect(container.image).toMatch(/^quay\.io\/cilium\/cilium:v1\.18\.5@sha256:[0-9a-f]{64}$/);
      expect(container.securityContext).toEqual({
        runAsUser: 0,
        runAsNonRoot: false,
        allowPrivilegeEscalation: false,
        privileged: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'], add: kubeProxy ? [...INSPECTOR_CAPABILITIES] : [] },
      });
      expect(pod.hostNetwork).toBe(kubeProxy);
      expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
      const hostPaths = (pod.volumes as Json[]).filter((v) => v.hostPath).map((v) => v.hostPath);
      expect(hostPaths).toEqual(kubeProxy ? [] : [{ path: '/var/run/cilium', type: 'Directory' }]);
      expect((container.volumeMounts as Json[]).find((m) => m.mountPath === '/var/run/cilium')?.readOnly).toBe(kubeProxy ? undefined : true);
    },
  );

  test.each([
    ['kube-proxy-iptables', ['Host Namespaces: hostNetwork', 'Capabilities: hoplab-inspector adds NET_ADMIN', 'Capabilities: hoplab-inspector adds NET_RAW']],
    ['cilium-ebpf', ['HostPath Volumes: cilium-run']],
  ] as const)(
    'GIVEN %s WHEN its Pod is held to Pod Security baseline THEN exactly what its tools need is refused there, which is why it has a privileged namespace of its own',
    (dataplane, refused) => {
      expect(baselineViolations(synth(dataplane).pod)).toEqual(refused);
    },
  );

  test('GIVEN kube-proxy iptables WHEN one dump is printed THEN it shows the lab’s NAT rules from the backend that holds them (a Cluster Service’s masquerade mark among them), the SNAT chains, and the app port’s connection tracking, nothing of other namespaces', () => {
    expect(runOnce('kube-proxy-iptables')).toBe(
      dump(
        '--- NAT rules kube-proxy wrote for the hoplab Services (iptables-save -t nat)',
        '# iptables-nft',
        '-A KUBE-EXT-QD5X3TKBDKMXKXPQ -m comment --comment "masquerade traffic for hoplab/echo-nodeport-l4:http external destinations" -j KUBE-MARK-MASQ',
        '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
        '-A KUBE-NODEPORTS -p tcp -m comment --comment "hoplab/echo-nodeport-l4:http" -m tcp --dport 31234 -j KUBE-EXT-QD5X3TKBDKMXKXPQ',
        '-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
        '-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
        '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
        '-A KUBE-SEP-7GQH2MZ6XQ3LB4ZW -s 10.0.1.5/32 -m comment --comment "hoplab/echo-nodeport-l4:http" -j KUBE-MARK-MASQ',
        '-A KUBE-SEP-7GQH2MZ6XQ3LB4ZW -p tcp -m comment --comment "hoplab/echo-nodeport-l4:http" -m tcp -j DNAT --to-destination 10.0.1.5:8080',
        '-A KUBE-SERVICES -d 172.20.117.4/32 -p tcp -m comment --comment "hoplab/echo-nodeport-l4:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-QD5X3TKBDKMXKXPQ',
        '-A KUBE-SVC-QD5X3TKBDKMXKXPQ -m comment --comment "hoplab/echo-nodeport-l4:http -> 10.0.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-7GQH2MZ6XQ3LB4ZW',
        '--- connection tracking entries of port 8080 (/proc/net/nf_conntrack)',
        'ipv4     2 tcp      6 86397 ESTABLISHED src=203.0.113.7 dst=10.0.1.20 sport=51234 dport=31234 src=10.0.1.5 dst=10.0.1.20 sport=8080 dport=51234 [ASSURED] mark=0 zone=0 use=2',
      ),
    );
  });

  test('GIVEN kube-proxy ipvs WHEN one dump is printed THEN it shows the virtual servers whose real servers are on the app port (8080 = 1F90)', () => {
    const dump = runOnce('kube-proxy-ipvs');
    expect(dump).toContain(
      [
        '--- IPVS virtual servers with real servers on port 8080 (/proc/net/ip_vs: addresses and ports in hex, 8080 = 1F90)',
        'TCP  AC147504:0050 rr',
        '  -> 0A000105:1F90      Masq    1      0          0',
        '  -> 0A000206:1F90      Masq    1      0          0',
        '--- NAT rules',
      ].join('\n'),
    );
    expect(dump).not.toContain('AC14000A');
  });

  test('GIVEN kube-proxy nftables WHEN one dump is printed THEN it says the rules cannot be shown, and why', () => {
    expect(runOnce('kube-proxy-nftables')).toContain(
      "(not shown: kube-proxy's nftables mode writes native nftables tables, and the inspector's image has no nft; on the node: nft list table ip kube-proxy)",
    );
  });

  test('GIVEN Cilium WHEN one dump is printed THEN it shows the header and the Service entries with a backend on the app port, each with all its backends', () => {
    expect(runOnce('cilium-ebpf')).toBe(
      dump(
        "--- Cilium's Service table, entries with backends on port 8080 (cilium-dbg service list)",
        'ID   Frontend                Service Type   Backend',
        '5    172.20.117.4:80/TCP     ClusterIP      1 => 10.0.1.5:8080/TCP (active)',
        '                                            2 => 10.0.2.6:8080/TCP (active)',
        '6    0.0.0.0:31234/TCP       NodePort       1 => 10.0.1.5:8080/TCP (active)',
      ),
    );
  });

  test.each([...DATAPLANES])('GIVEN %s WHEN the commands attendees run are read THEN they are kubectl logs of the inspector, and name the sections a dump holds', (dataplane) => {
    const { commands, sections } = inspectorLogCommands(dataplane, 'hoplab', 8080);
    expect(commands.map((c) => c.command)).toEqual([
      'kubectl logs -n hoplab-inspector -l app.kubernetes.io/name=hoplab-inspector --prefix --since=35s',
      'kubectl logs -n hoplab-inspector $(kubectl get pods -n hoplab-inspector -l app.kubernetes.io/name=hoplab-inspector --field-selector spec.nodeName=<node> -o name) --since=35s',
    ]);
    expect(sections).toEqual(inspectorSections(dataplane, 'hoplab', 8080).map((s) => s.title));
  });

  test('GIVEN the script WHEN written into Terraform JSON THEN it holds no ${ or %{ (Terraform would read them as its own templates)', () => {
    for (const dataplane of DATAPLANES) expect(inspectorScript(dataplane, 'hoplab', 8080)).not.toMatch(/[$%]\{/);
  });
});

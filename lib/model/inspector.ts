/**
 * The datapath inspector: a read-only DaemonSet the host's `-lb` stacks run in
 * its own namespace, which prints to its log, every {@link INSPECTOR_INTERVAL_SECONDS},
 * what the node's datapath does with the lab's Services (filtered to the demo
 * app's Services and its port). Attendees read it with `kubectl logs`, which
 * their view access allows, so the node-level exercise needs no root on the node.
 *
 * What it prints, per datapath (the `Dataplane` word of lib/model/datapaths.ts):
 * - kube-proxy iptables: the NAT rules kube-proxy wrote for the lab's Services
 *   (`iptables-save -t nat`, lines of `hoplab/<service>` and the SNAT chains),
 *   from the backend that holds them (legacy or nf_tables);
 * - kube-proxy ipvs: the IPVS virtual servers whose real servers are the app's
 *   Pods (`/proc/net/ip_vs`, addresses in hex), and the same iptables lines;
 * - kube-proxy nftables: nothing of the rules: they are native nftables tables,
 *   and the pinned image has no `nft` (said in the log);
 * - Cilium (EKS) and Dataplane V2 (GKE): `cilium-dbg service list`, the entries
 *   whose backends are the app's Pods, through the node's Cilium agent's API socket;
 * - and on kube-proxy datapaths the node's connection tracking entries of the
 *   app's port, where the kernel offers them (`/proc/net/nf_conntrack`).
 * None of it has been run on a real cluster (no API server or container runtime here).
 */
import { Dataplane } from './datapaths';

/** The inspector's namespace, apart from `hoplab`: its Pods need what `hoplab`'s Pod Security refuses. */
export const INSPECTOR_NAMESPACE = 'hoplab-inspector';

/** The DaemonSet's name, and its container's. */
export const INSPECTOR_NAME = 'hoplab-inspector';

/** Labels of the DaemonSet and its Pods (`kubectl logs -l` selects by the first). */
export const INSPECTOR_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/name': INSPECTOR_NAME,
  'app.kubernetes.io/part-of': 'hoplab',
};

/** Seconds between two dumps. */
export const INSPECTOR_INTERVAL_SECONDS = 30;

/** The line each dump starts with (then the node's name and the time), so a log reader finds dumps. */
export const INSPECTOR_DUMP_MARKER = '=== hoplab-inspector';

/** Where the node's Cilium agent serves its API (Cilium's default `/var/run/cilium/cilium.sock`, a host path the agent mounts). */
export const CILIUM_AGENT_SOCKET_DIR = '/var/run/cilium';

/** One part of a dump: its title line and the shell that prints it. */
export interface InspectorSection {
  readonly title: string;
  readonly shell: string;
}

/** Whether a datapath's Services are kube-proxy's (rules in the node's network namespace) or Cilium's (eBPF maps behind the agent). */
export function inspectorNeedsHostNetwork(dataplane: Dataplane): boolean {
  return dataplane !== 'cilium-ebpf';
}

/** `8080` as /proc/net/ip_vs writes ports: four upper-case hex digits. */
function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The sections of a dump on `dataplane`, filtered to `namespace`'s Services and
 * the app's container port `appPort` (what the Services' rules DNAT to).
 */
export function inspectorSections(dataplane: Dataplane, namespace: string, appPort: number): InspectorSection[] {
  // kube-proxy comments every Service rule with `<namespace>/<service>:<port name>`, at the start of the comment
  // or after words (`"masquerade traffic for hoplab/echo:http external destinations"`, the mark that makes a
  // Cluster Service's SNAT); the SNAT chains are shared.
  const natFilter = `grep -E -- '[" ]${namespace}/|^-A KUBE-(POSTROUTING|MARK-MASQ) '`;
  const iptables: InspectorSection = {
    title: `NAT rules kube-proxy wrote for the ${namespace} Services (iptables-save -t nat)`,
    shell: `for backend in legacy nft; do rules=$(iptables-$backend-save -t nat 2>/dev/null | ${natFilter}); ` + `if [ -n "$rules" ]; then echo "# iptables-$backend"; echo "$rules"; fi; done`,
  };
  const conntrack: InspectorSection = {
    title: `connection tracking entries of port ${appPort} (/proc/net/nf_conntrack)`,
    shell:
      `if [ -r "$PROC_NET/nf_conntrack" ]; then grep -E 'port=${appPort} ' "$PROC_NET/nf_conntrack" | head -n 50; ` +
      `else echo "(this node's kernel does not expose /proc/net/nf_conntrack, and the image has no conntrack tool)"; fi`,
  };
  switch (dataplane) {
    case 'kube-proxy-iptables':
      return [iptables, conntrack];
    case 'kube-proxy-ipvs':
      return [
        {
          title: `IPVS virtual servers with real servers on port ${appPort} (/proc/net/ip_vs: addresses and ports in hex, ${appPort} = ${hexPort(appPort)})`,
          shell: `awk -v port=':${hexPort(appPort)}' '/^(TCP|UDP)/ { vs = $0; shown = 0; next } /->/ && index($2, port) { if (!shown) { print vs; shown = 1 } print }' "$PROC_NET/ip_vs"`,
        },
        iptables,
        conntrack,
      ];
    case 'kube-proxy-nftables':
      return [
        {
          title: 'nftables rules of kube-proxy (table ip kube-proxy)',
          shell: 'echo "(not shown: kube-proxy\'s nftables mode writes native nftables tables, and the inspector\'s image has no nft; on the node: nft list table ip kube-proxy)"',
        },
        conntrack,
      ];
    case 'cilium-ebpf':
      return [
        {
          title: `Cilium's Service table, entries with backends on port ${appPort} (cilium-dbg service list)`,
          // An entry is a line starting with its ID and the lines of its further backends (`1 => 10.0.1.5:8080/TCP (active)`);
          // print the entries with a backend on appPort.
          shell: `cilium-dbg service list | awk -v port=':${appPort}[/ ]' 'NR == 1 { print; next } /^[0-9]/ { if (entry ~ port) printf "%s", entry; entry = "" } { entry = entry $0 "\\n" } END { if (entry ~ port) printf "%s", entry }'`,
        },
      ];
  }
}

/** The inspector's whole script: a dump of every section, printed at once, every interval, forever. */
export function inspectorScript(dataplane: Dataplane, namespace: string, appPort: number): string {
  const sections = inspectorSections(dataplane, namespace, appPort)
    .map((s) => `echo "--- ${s.title}"; { ${s.shell}; } 2>&1`)
    .join('; ');
  return [
    // Where the node's /proc/net is (the inspector runs in the node's network namespace); a test points it elsewhere.
    '[ -n "$PROC_NET" ] || PROC_NET=/proc/net',
    'while true; do',
    // One echo per dump, so two nodes' or two dumps' lines never interleave inside one.
    `  dump=$( echo "${INSPECTOR_DUMP_MARKER} $NODE_NAME $(date -u +%Y-%m-%dT%H:%M:%SZ) ==="; ${sections} )`,
    '  echo "$dump"',
    `  sleep ${INSPECTOR_INTERVAL_SECONDS}`,
    'done',
  ].join('\n');
}

/** A `kubectl` command an attendee runs to read the inspector, and what it shows. */
export interface InspectorCommand {
  readonly purpose: string;
  readonly command: string;
}

/**
 * The `kubectl logs` commands attendees run to read the inspector on
 * `dataplane` (with `<node>` to fill in from `kubectl get nodes`), and what each
 * dump holds there. The last dump or two: logs of one interval and a few seconds.
 */
export function inspectorLogCommands(dataplane: Dataplane, namespace: string, appPort: number): { readonly commands: readonly InspectorCommand[]; readonly sections: readonly string[] } {
  const since = `--since=${INSPECTOR_INTERVAL_SECONDS + 5}s`;
  const selector = `-l app.kubernetes.io/name=${INSPECTOR_NAME}`;
  return {
    commands: [
      { purpose: 'the latest dump of every node, each line prefixed with its Pod', command: `kubectl logs -n ${INSPECTOR_NAMESPACE} ${selector} --prefix ${since}` },
      {
        purpose: 'the latest dump of one node',
        command: `kubectl logs -n ${INSPECTOR_NAMESPACE} $(kubectl get pods -n ${INSPECTOR_NAMESPACE} ${selector} --field-selector spec.nodeName=<node> -o name) ${since}`,
      },
    ],
    sections: inspectorSections(dataplane, namespace, appPort).map((s) => s.title),
  };
}

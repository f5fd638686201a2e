import { DaemonSetV1 } from '@cdktf/provider-kubernetes/lib/daemon-set-v1';
import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { Construct } from 'constructs';
import { Dataplane } from '../../model/datapaths';
import { CILIUM_AGENT_SOCKET_DIR, INSPECTOR_LABELS, INSPECTOR_NAME, INSPECTOR_NAMESPACE, inspectorNeedsHostNetwork, inspectorScript } from '../../model/inspector';
import { podSecurityLabels } from '../../model/pod-security';

/**
 * Linux capabilities the inspector's container gets, and no others (it drops ALL first):
 * - `NET_ADMIN`: reading netfilter state is a privileged netlink or socket-option call
 *   (nf_tables dumps through nfnetlink, which checks CAP_NET_ADMIN for every message;
 *   legacy iptables' IPT_SO_GET_INFO/ENTRIES do too);
 * - `NET_RAW`: `iptables-legacy-save` reads the tables through a raw socket.
 * Cilium's datapath needs neither (it asks the agent over its socket): none there.
 */
export const INSPECTOR_CAPABILITIES = ['NET_ADMIN', 'NET_RAW'] as const;

export interface DatapathInspectorProps {
  /** The node datapath whose Service handling it prints (the cluster's `dataplane` word). Required. */
  readonly dataplane: Dataplane;
  /** The image, pinned by digest, that carries the tools (see `CILIUM_AGENT_IMAGE`). Required. */
  readonly image: string;
  /** The namespace of the Services to show (the demo app's). Required. */
  readonly appNamespace: string;
  /** The app's container port: what the Services' rules send to. Required. */
  readonly appPort: number;
  /**
   * The Pod Security version of the inspector's namespace labels (its level is `privileged`).
   * @default 'latest'
   */
  readonly podSecurityVersion?: string;
}

/**
 * The read-only datapath inspector (lib/model/inspector.ts): a namespace of its
 * own labelled Pod Security `privileged` (it needs the node's network namespace,
 * a host path to Cilium's socket and NET_ADMIN, which `baseline` refuses in
 * `hoplab`), and a DaemonSet on every node that prints the lab's Service rules
 * to its log. Least privilege otherwise: no service-account token, read-only
 * root filesystem, no privilege escalation, RuntimeDefault seccomp, and only
 * {@link INSPECTOR_CAPABILITIES} (none on Cilium). It runs as root (uid 0):
 * netfilter and the agent's socket belong to root.
 */
export class DatapathInspector extends Construct {
  /** The namespace. */
  public readonly namespace: NamespaceV1;
  /** The DaemonSet. */
  public readonly daemonSet: DaemonSetV1;

  constructor(scope: Construct, id: string, props: DatapathInspectorProps) {
    super(scope, id);
    const hostNetwork = inspectorNeedsHostNetwork(props.dataplane);
    this.namespace = new NamespaceV1(this, 'namespace', {
      metadata: { name: INSPECTOR_NAMESPACE, labels: { 'app.kubernetes.io/part-of': 'hoplab', ...podSecurityLabels('privileged', props.podSecurityVersion ?? 'latest') } },
    });
    const cilium = !hostNetwork;
    this.daemonSet = new DaemonSetV1(this, 'daemon-set', {
      metadata: { name: INSPECTOR_NAME, namespace: this.namespace.metadata.name, labels: { ...INSPECTOR_LABELS } },
      spec: {
        selector: { matchLabels: { ...INSPECTOR_LABELS } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } },
        template: {
          metadata: { labels: { ...INSPECTOR_LABELS } },
          spec: {
            automountServiceAccountToken: false,
            enableServiceLinks: false,
            hostNetwork,
            dnsPolicy: hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
            // Every node, tainted or not: a node's rules are what the attendee asks about.
            toleration: [{ operator: 'Exists' }],
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
            terminationGracePeriodSeconds: 1,
            container: [
              {
                name: INSPECTOR_NAME,
                image: props.image,
                command: ['/bin/bash', '-c', inspectorScript(props.dataplane, props.appNamespace, props.appPort)],
                env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
                resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } },
                securityContext: {
                  runAsUser: '0',
                  runAsNonRoot: false,
                  allowPrivilegeEscalation: false,
                  privileged: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ['ALL'], add: cilium ? [] : [...INSPECTOR_CAPABILITIES] },
                },
                // A scratch /tmp for the tools, as the root filesystem is read-only.
                volumeMount: [{ name: 'tmp', mountPath: '/tmp' }, ...(cilium ? [{ name: 'cilium-run', mountPath: CILIUM_AGENT_SOCKET_DIR, readOnly: true }] : [])],
              },
            ],
            volume: [{ name: 'tmp', emptyDir: { sizeLimit: '1Mi' } }, ...(cilium ? [{ name: 'cilium-run', hostPath: { path: CILIUM_AGENT_SOCKET_DIR, type: 'Directory' } }] : [])],
          },
        },
      },
      // The Pods start as nodes come; Terraform need not wait for every node's.
      waitForRollout: false,
    });
  }
}

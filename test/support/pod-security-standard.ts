/**
 * The Pod Security Standards' `baseline` and `restricted` profiles as checks on
 * a Pod spec in API form, written from the standard
 * (kubernetes.io/docs/concepts/security/pod-security-standards/, the v1.34 text
 * of 2025), control by control. There is no API server here to admit a Pod, so
 * the lab's Pod specs are held to the profile by these checks instead; what the
 * API server's admission plugin does beyond them is not tested.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value !== null && typeof value === 'object' ? (value as Obj) : {});
const arr = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);

/** Capabilities `baseline` lets a container add (the "Capabilities" control). */
const BASELINE_CAPABILITIES = ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'];
/** Sysctls `baseline` allows (the "Sysctls" control, the safe set). */
const SAFE_SYSCTLS = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];
const SELINUX_TYPES = ['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];
/** Volume types `restricted` allows. */
const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

function containersOf(spec: Obj): Obj[] {
  return [...arr(spec.containers), ...arr(spec.initContainers), ...arr(spec.ephemeralContainers)];
}

/** What in a Pod spec `baseline` forbids, one line per violated control and container. */
export function baselineViolations(spec: Obj): string[] {
  const out: string[] = [];
  const podContext = obj(spec.securityContext);
  if (obj(podContext.windowsOptions).hostProcess === true) out.push('HostProcess: the Pod');
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[field] === true) out.push(`Host Namespaces: ${field}`);
  for (const volume of arr(spec.volumes)) if (volume.hostPath !== undefined) out.push(`HostPath Volumes: ${String(volume.name)}`);
  const seccomp = (context: Obj) => obj(context.seccompProfile).type === 'Unconfined';
  const apparmor = (context: Obj) => obj(context.appArmorProfile).type === 'Unconfined';
  const selinux = (context: Obj) => {
    const options = obj(context.seLinuxOptions);
    return !SELINUX_TYPES.includes(String(options.type ?? '')) || options.user !== undefined || options.role !== undefined;
  };
  if (seccomp(podContext)) out.push('Seccomp: the Pod is Unconfined');
  if (apparmor(podContext)) out.push('AppArmor: the Pod is Unconfined');
  if (selinux(podContext)) out.push('SELinux: the Pod');
  for (const sysctl of arr(podContext.sysctls)) if (!SAFE_SYSCTLS.includes(String(sysctl.name))) out.push(`Sysctls: ${String(sysctl.name)}`);
  for (const container of containersOf(spec)) {
    const name = String(container.name);
    const context = obj(container.securityContext);
    if (obj(context.windowsOptions).hostProcess === true) out.push(`HostProcess: ${name}`);
    if (context.privileged === true) out.push(`Privileged Containers: ${name}`);
    for (const capability of (obj(context.capabilities).add as string[] | undefined) ?? []) if (!BASELINE_CAPABILITIES.includes(capability)) out.push(`Capabilities: ${name} adds ${capability}`);
    for (const port of arr(container.ports)) if (port.hostPort !== undefined && port.hostPort !== 0) out.push(`Host Ports: ${name} ${String(port.hostPort)}`);
    if (seccomp(context)) out.push(`Seccomp: ${name} is Unconfined`);
    if (apparmor(context)) out.push(`AppArmor: ${name} is Unconfined`);
    if (selinux(context)) out.push(`SELinux: ${name}`);
    if (context.procMount !== undefined && context.procMount !== 'Default') out.push(`/proc Mount Type: ${name}`);
  }
  return out;
}

/** What `restricted` forbids beyond `baseline`. */
export function restrictedViolations(spec: Obj): string[] {
  const out = baselineViolations(spec);
  const podContext = obj(spec.securityContext);
  for (const volume of arr(spec.volumes)) {
    const types = Object.keys(volume).filter((k) => k !== 'name');
    if (!types.every((t) => RESTRICTED_VOLUMES.includes(t))) out.push(`Volume Types: ${String(volume.name)} is ${types.join(', ')}`);
  }
  for (const container of containersOf(spec)) {
    const name = String(container.name);
    const context = obj(container.securityContext);
    if (context.allowPrivilegeEscalation !== false) out.push(`Privilege Escalation: ${name} does not set allowPrivilegeEscalation: false`);
    if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) out.push(`Running as Non-root: ${name}`);
    if ((context.runAsUser ?? podContext.runAsUser) === 0) out.push(`Running as Non-root user: ${name} runs as uid 0`);
    const seccomp = String(obj(context.seccompProfile).type ?? obj(podContext.seccompProfile).type ?? '');
    if (!['RuntimeDefault', 'Localhost'].includes(seccomp)) out.push(`Seccomp: ${name} has no RuntimeDefault or Localhost profile`);
    const capabilities = obj(context.capabilities);
    if (!((capabilities.drop as string[] | undefined) ?? []).includes('ALL')) out.push(`Capabilities: ${name} does not drop ALL`);
    for (const capability of (capabilities.add as string[] | undefined) ?? []) if (capability !== 'NET_BIND_SERVICE') out.push(`Capabilities: ${name} adds ${capability}`);
  }
  return out;
}

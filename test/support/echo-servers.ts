/**
 * Local HTTP servers on 127.0.0.1 that answer like the demo app
 * (registry.k8s.io/echoserver:1.10) behind each kind of exposure.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface EchoFields {
  readonly pod: string;
  readonly node: string;
  readonly podIp: string;
  readonly clientAddress: string;
  readonly forwardedFor?: string;
  readonly host: string;
}

/** The reply text of echoserver 1.10, with the given values. */
export function echoBody(f: EchoFields): string {
  return [
    '',
    '',
    `Hostname: ${f.pod}`,
    '',
    'Pod Information:',
    `\tnode name:\t${f.node}`,
    `\tpod name:\t${f.pod}`,
    '\tpod namespace:\thoplab',
    `\tpod IP:\t${f.podIp}`,
    '',
    'Server values:',
    '\tserver_version=nginx: 1.13.3 - lua: 10008',
    '',
    'Request Information:',
    `\tclient_address=${f.clientAddress}`,
    '\tmethod=GET',
    '\treal path=/',
    '\tquery=',
    '\trequest_version=1.1',
    '\trequest_scheme=http',
    `\trequest_uri=http://${f.host}:8080/`,
    '',
    'Request Headers:',
    '\taccept=text/plain',
    '\tconnection=close',
    `\thost=${f.host}`,
    '\tuser-agent=hoplab-compare',
    ...(f.forwardedFor ? [`\tx-forwarded-for=${f.forwardedFor}`] : []),
    '',
    'Request Body:',
    '\t-no body in request-',
    '',
    '',
  ].join('\n');
}

const PODS = [
  { pod: 'echo-5d9c7b8f6d-x2k4p', node: 'ip-10-0-1-23.ec2.internal', podIp: '10.0.1.57' },
  { pod: 'echo-5d9c7b8f6d-q8w7e', node: 'ip-10-0-33-41.ec2.internal', podIp: '10.0.33.90' },
];
/** Node addresses, the third node has no Pod. */
const NODE_ADDRESSES = ['10.0.1.23', '10.0.33.41', '10.0.2.200'];

/** GKE Pods: node names carry no address; SNAT shows a node's IP (node subnet) or, on the Pod's own node, its Pod-range gateway. */
const GKE_PODS = [
  { pod: 'echo-7f6b9c5d4-g2h8k', node: 'gke-lab-gke-lab-gke-nodes-3b1f9c2e-7xqd', podIp: '10.20.1.12' },
  { pod: 'echo-7f6b9c5d4-m4n6p', node: 'gke-lab-gke-lab-gke-nodes-3b1f9c2e-k2vz', podIp: '10.20.2.7' },
];
const GKE_SNAT_SOURCES = ['10.10.0.4', '10.20.1.1', '10.10.0.6'];

/** An ALB's address in a public subnet: the TCP peer behind an L7 proxy with Pod targets. */
const ALB_ADDRESS = '10.0.225.9';

export type Behaviour = 'client-address' | 'snat' | 'snat-gke' | 'snat-l4' | 'proxy' | 'slow';

export interface RunningServer {
  readonly url: string;
  readonly requests: () => number;
  close(): Promise<void>;
}

function remote(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/** What a controlled server does now; change it while a probe or watch runs. */
export interface EchoControl {
  /** How the reply shows the client (see {@link startEchoServer}); `slow` is `client-address` after `delayMs`. */
  behaviour: Exclude<Behaviour, 'slow'>;
  /** Milliseconds before answering (a slow Pod or load balancer). */
  delayMs: number;
  /** Fail instead of answering: `http-503` (a load balancer with no healthy target) or `reset` (the connection is cut). */
  fail: false | 'http-503' | 'reset';
  /** The Pods that answer, in turn. @default two Pods on two nodes (EKS node names; GKE names for `snat-gke`) */
  pods: readonly { readonly pod: string; readonly node: string; readonly podIp: string }[] | undefined;
  /** Replies wait for this (after `delayMs`): hold requests open until the test lets them go. */
  gate: Promise<void> | undefined;
}

/** Requests being answered at once, over every server that shares it. */
export class InFlightGauge {
  now = 0;
  max = 0;
  enter(): void {
    this.now += 1;
    this.max = Math.max(this.max, this.now);
  }
  leave(): void {
    this.now -= 1;
  }
}

export interface ControlledServer extends RunningServer {
  /** Change it to change what the next requests get. */
  readonly control: EchoControl;
}

/**
 * A loopback echo server whose behaviour can change mid-run: fail, slow down,
 * switch Pods and nodes, switch SNAT on or off (`client-address` <-> `snat-l4`).
 */
export async function startControlledEchoServer(initial: Partial<EchoControl> = {}, gauge?: InFlightGauge): Promise<ControlledServer> {
  const control: EchoControl = { behaviour: 'client-address', delayMs: 0, fail: false, pods: undefined, gate: undefined, ...initial };
  let count = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const n = count;
    count += 1;
    gauge?.enter();
    let left = false;
    const leave = () => {
      if (!left) gauge?.leave();
      left = true;
    };
    res.on('close', leave);
    const behaviour = control.behaviour;
    const pods = control.pods ?? (behaviour === 'snat-gke' ? GKE_PODS : PODS);
    const pod = pods[n % pods.length];
    const host = req.headers.host ?? 'localhost';
    const body =
      behaviour === 'snat'
        ? echoBody({ ...pod, host, clientAddress: NODE_ADDRESSES[n % NODE_ADDRESSES.length], forwardedFor: remote(req) })
        : behaviour === 'snat-gke'
        ? echoBody({ ...pod, host, clientAddress: GKE_SNAT_SOURCES[n % GKE_SNAT_SOURCES.length], forwardedFor: remote(req) })
        : behaviour === 'snat-l4'
        ? echoBody({ ...pod, host, clientAddress: NODE_ADDRESSES[n % NODE_ADDRESSES.length] })
        : behaviour === 'proxy'
        ? echoBody({ ...pod, host, clientAddress: ALB_ADDRESS, forwardedFor: `${remote(req)}, ${ALB_ADDRESS}` })
        : echoBody({ ...pod, host, clientAddress: remote(req) });
    const fail = control.fail;
    const reply = () => {
      if (fail === 'reset') {
        req.socket.destroy();
      } else if (fail === 'http-503') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('no healthy upstream\n');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(body);
      }
      leave();
    };
    const gate = control.gate;
    const answer = () => (gate ? void gate.then(reply) : reply());
    if (control.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, control.delayMs);
      timers.add(timer);
    } else {
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    control,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) {
          clearTimeout(timer);
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * - `client-address`: the Pod sees the prober (NLB instance + ETP Local: no proxy, no SNAT).
 * - `snat`: the Pod sees a node address, the client only in X-Forwarded-For (ALB instance + ETP Cluster).
 * - `snat-gke`: the same behind a GKE Ingress over instance groups (node names without addresses).
 * - `snat-l4`: the Pod sees a node address and no header: the client is gone (NLB instance + ETP Cluster, `nodeport-l4`).
 * - `proxy`: the Pod sees the ALB's address, the client in X-Forwarded-For (ALB `ip` targets: `native`, `gateway`).
 *   The client-kept L4 case with Pod targets (NLB `ip` + client IP preservation, `native-l4`) is `client-address`.
 * - `slow`: answers after `slowMs` (longer than the probe timeout).
 */
export async function startEchoServer(behaviour: Behaviour, slowMs = 5000): Promise<RunningServer> {
  return startControlledEchoServer(behaviour === 'slow' ? { behaviour: 'client-address', delayMs: slowMs } : { behaviour });
}

/** A loopback URL nothing listens on (connection refused): a port bound and released. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

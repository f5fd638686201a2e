import { AnnotationMetadataEntryType } from 'cdktf';
import { podSecurityLabels } from '../../lib/model/pod-security';
import { parse } from 'yaml';
import { DEFAULT_EXPOSURES, ExposureMode } from '../../lib/model/modes';
import { EKS_VERSIONS } from '../../lib/model/versions';
import { exposureOutputName } from '../../lib/model/contract';
import { ExposureFacts, exposureFacts } from '../../lib/model/exposure-facts';

const awsFacts = (mode: ExposureMode): ExposureFacts => exposureFacts('aws', mode)!;
import { LB_CONTROLLER_SERVICE_ACCOUNT } from '../../lib/constructs/aws/load-balancer-controller-role';
import { ENV_TAG, labTags } from '../../lib/model/tags';
import { kubernetesObjects, manifestObjects } from '../support/k8s-objects';
import { synthAwsLb } from '../support/aws-lb';
import { dependencyGraph, destroyOrder } from '../support/graph';
import { Json, portable, resourceOf } from '../support/synth';

const REMOTE = 'data.terraform_remote_state.cross-stack-reference-input-lab-aws-cluster.outputs';

describe('AwsLbStack', () => {
  describe('GIVEN the default config', () => {
    const { json, text, lb, cluster, config } = synthAwsLb();
    const release = resourceOf(json, 'helm_release', 'lb-controller_');
    const crds = resourceOf(json, 'helm_release', 'gateway-api-crds_');
    const gatewayRelease = resourceOf(json, 'helm_release', 'exposure-gateway_');
    const values = parse(release.config.values[0]);
    const gatewayObjects = parse(gatewayRelease.config.values[0]).manifests as { kind: string; apiVersion: string; metadata: Record<string, Json>; spec?: Json; rules?: Json }[];
    const gatewayObject = (kind: string) => gatewayObjects.find((o) => o.kind === kind)!;
    const loadBalancerObjects = [
      resourceOf(json, 'kubernetes_ingress_v1', 'exposure-native_'),
      gatewayRelease,
      resourceOf(json, 'kubernetes_ingress_v1', 'exposure-nodeport_'),
      resourceOf(json, 'kubernetes_service_v1', 'exposure-nodeport-l4_'),
      resourceOf(json, 'kubernetes_service_v1', 'exposure-nodeport-local_'),
      resourceOf(json, 'kubernetes_service_v1', 'exposure-native-l4_'),
    ];

    describe('cross-stack wiring', () => {
      test('THEN the stack depends on the cluster stack, so cdktf deploys it after and destroys it before', () => {
        expect(lb.dependencies).toEqual([cluster]);
      });

      test('THEN both providers read endpoint, CA and cluster name from the cluster stack state', () => {
        const kubernetes = json.provider.kubernetes[0] as Record<string, Json>;
        expect(kubernetes.host).toBe(`\${${REMOTE}.cross-stack-output-aws_eks_clustereks_cluster_55B0C966endpoint}`);
        expect(kubernetes.cluster_ca_certificate).toBe(`\${base64decode(${REMOTE}.cross-stack-output-aws_eks_clustereks_cluster_55B0C966certificate_authority0data)}`);
        expect(kubernetes.exec[0].args).toEqual([
          'eks',
          'get-token',
          '--cluster-name',
          `\${${REMOTE}.cross-stack-output-aws_eks_clustereks_cluster_55B0C966name}`,
          '--region',
          'us-east-1',
          '--output',
          'json',
        ]);
        expect((json.provider.helm[0] as Record<string, Json>).kubernetes).toEqual({ host: kubernetes.host, cluster_ca_certificate: kubernetes.cluster_ca_certificate, exec: kubernetes.exec[0] });
      });

      test('THEN the controller gets cluster name, VPC and IAM role from the cluster stack', () => {
        expect(values.clusterName).toBe(`\${${REMOTE}.cross-stack-output-aws_eks_clustereks_cluster_55B0C966name}`);
        expect(values.vpcId).toBe(`\${${REMOTE}.cross-stack-output-aws_vpcvpc_6776A399id}`);
        expect(values.serviceAccount.name).toBe(LB_CONTROLLER_SERVICE_ACCOUNT);
        expect(values.serviceAccount.annotations['eks.amazonaws.com/role-arn']).toBe(`\${${REMOTE}.cross-stack-output-aws_iam_rolelb-controller-role_6B9A885Farn}`);
      });

      test('THEN no credential is stored: no token data source, no token output', () => {
        expect(Object.keys(json.data ?? {}).sort()).toEqual(['kubernetes_resource', 'terraform_remote_state']);
        expect(text).not.toMatch(/"token"|aws_eks_cluster_auth/);
      });
    });

    describe('controller and app', () => {
      test('THEN the chart version comes from the config and its AWS resources carry the environment tags', () => {
        expect(release.config.version).toBe('3.5.0');
        expect(values.defaultTags).toEqual(labTags(config, 'lab-aws-lb'));
        expect(values.defaultTags).toEqual(expect.objectContaining({ [ENV_TAG]: 'lab', 'hoplab-stack': 'lab-aws-lb' }));
      });

      test('THEN the app namespace turns on readiness-gate injection, and the webhook fails closed for the app Pods', () => {
        const namespace = resourceOf(json, 'kubernetes_namespace_v1', 'app_namespace');
        expect(namespace.config.metadata).toEqual({
          name: 'hoplab',
          labels: {
            'app.kubernetes.io/name': 'hoplab-echo',
            'app.kubernetes.io/part-of': 'hoplab',
            'elbv2.k8s.aws/pod-readiness-gate-inject': 'enabled',
            // Pod Security baseline, pinned to the cluster's minor (aws.kubernetesVersion 1.34).
            ...podSecurityLabels('baseline', 'v1.34'),
          },
        });
        const deployment = resourceOf(json, 'kubernetes_deployment_v1');
        expect(values.objectSelector).toEqual({ matchLabels: deployment.config.spec.template.metadata.labels });
        expect(values.podMutatorWebhookConfig).toEqual({ failurePolicy: 'Fail' });
      });

      test('THEN the demo app runs the configured image with fewer replicas than nodes', () => {
        const deployment = resourceOf(json, 'kubernetes_deployment_v1');
        expect(deployment.config.spec.replicas).toBe('2');
        expect(deployment.config.spec.template.spec.container[0].image).toBe('registry.k8s.io/echoserver:1.10');
        expect(lb.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN)).toEqual([]);
      });
    });

    describe('order', () => {
      const graph = dependencyGraph(json);
      const order = destroyOrder(graph);
      const before = (a: string, b: string) => order.indexOf(a) < order.indexOf(b);

      test.each(['kubernetes_ingress_v1.exposure-native_', 'kubernetes_ingress_v1.exposure-nodeport_', 'kubernetes_service_v1.exposure-nodeport-local_', 'helm_release.exposure-gateway_'])(
        'THEN %s is created after, and destroyed before, the controller release',
        (prefix) => {
          const object = loadBalancerObjects.find((o) => o.address.startsWith(prefix))!;
          expect(object.config.depends_on).toContain(release.address);
          expect(before(object.address, release.address)).toBe(true);
        },
      );

      test('THEN every Kubernetes object of the stack goes before the controller; the Gateway API CRDs come before the controller and go last', () => {
        expect(order.slice(-2)).toEqual([release.address, crds.address]);
        expect(graph.get(release.address)).toEqual(new Set([crds.address]));
        expect(graph.get(crds.address)).toEqual(new Set());
      });

      test('THEN the Gateway objects release waits on uninstall too (finalizers run while the controller lives) and its Service goes after it', () => {
        expect(gatewayRelease.config).toMatchObject({ wait: true, atomic: true, timeout: 900 });
        const service = resourceOf(json, 'kubernetes_service_v1', 'exposure-gateway_');
        expect(gatewayRelease.config.depends_on).toEqual([release.address, service.address]);
        expect(before(gatewayRelease.address, service.address)).toBe(true);
      });

      test('THEN the Pods come after every load balancer (readiness gates need the target groups) and go before them', () => {
        const deployment = resourceOf(json, 'kubernetes_deployment_v1');
        expect(deployment.config.depends_on).toEqual(loadBalancerObjects.map((o) => o.address));
        for (const object of loadBalancerObjects) {
          expect(before(deployment.address, object.address)).toBe(true);
        }
      });

      test('THEN an Ingress goes before its backend Service and the namespace', () => {
        const namespace = resourceOf(json, 'kubernetes_namespace_v1', 'app_namespace');
        for (const mode of ['native', 'nodeport']) {
          const ingress = resourceOf(json, 'kubernetes_ingress_v1', `exposure-${mode}_`);
          const service = resourceOf(json, 'kubernetes_service_v1', `exposure-${mode}_`);
          expect(before(ingress.address, service.address)).toBe(true);
          expect(before(service.address, namespace.address)).toBe(true);
        }
      });
    });

    describe('outputs', () => {
      test('THEN there is one output per exposure, named by the contract, and nothing else', () => {
        expect(Object.keys(json.output).sort()).toEqual(['exposure_gateway', 'exposure_native', 'exposure_native_l4', 'exposure_nodeport', 'exposure_nodeport_l4', 'exposure_nodeport_local']);
      });

      test.each(DEFAULT_EXPOSURES.map((mode) => [mode]))('THEN exposure %s holds mode, cloud, URL from the load balancer status and the facts', (mode) => {
        const object = loadBalancerObjects.find((o) => o.address.includes(`exposure-${mode}_`))!;
        const [gatewayData] = Object.keys(json.data?.kubernetes_resource ?? {});
        expect(json.output[exposureOutputName(mode)].value).toEqual({
          mode,
          cloud: 'aws',
          url:
            mode === 'gateway'
              ? `http://\${data.kubernetes_resource.${gatewayData}.object.status.addresses[0].value}/`
              : `http://\${${object.address}.status[0].load_balancer[0].ingress[0].hostname}/`,
          ...awsFacts(mode),
          backends: {
            native: 'the Pod IPs, registered in an ip target group',
            gateway: 'the Pod IPs, registered in an ip target group',
            nodeport: "every node's NodePort, registered in an instance target group",
            'nodeport-l4': "every node's NodePort, registered in an instance target group",
            'nodeport-local': "every node's NodePort, registered in an instance target group",
            'native-l4': 'the Pod IPs, registered in an ip target group',
          }[mode],
        });
        const value = json.output[exposureOutputName(mode)].value as { client_ip_via: string; client_ip_preserved: boolean };
        expect(value.client_ip_preserved).toBe(value.client_ip_via !== 'none');
      });
    });

    describe('the facts in the outputs are what the resources do', () => {
      const backend = (mode: ExposureMode) => resourceOf(json, 'kubernetes_service_v1', `exposure-${mode}_`).config;

      test.each(['native', 'nodeport'] as const)('THEN %s: an Ingress (ALB) whose target-type and Service match the facts', (mode) => {
        const facts = awsFacts(mode);
        const ingress = resourceOf(json, 'kubernetes_ingress_v1', `exposure-${mode}_`).config;
        expect(facts.lb_kind).toBe('alb');
        expect(ingress.metadata.annotations['alb.ingress.kubernetes.io/target-type']).toBe(facts.target_type);
        expect(backend(mode).spec.type).toBe(facts.target_type === 'instance' ? 'NodePort' : 'ClusterIP');
        expect(backend(mode).spec.external_traffic_policy ?? 'Cluster').toBe(facts.external_traffic_policy);
      });

      test('THEN nodeport-local: an NLB Service with instance targets, the facts traffic policy and an HTTP health check', () => {
        const facts = awsFacts('nodeport-local');
        const service = backend('nodeport-local');
        expect(facts.lb_kind).toBe('nlb');
        expect(service.spec.load_balancer_class).toBe('service.k8s.aws/nlb');
        expect(service.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-nlb-target-type']).toBe(facts.target_type);
        expect(service.spec.external_traffic_policy).toBe(facts.external_traffic_policy);
        expect(facts.health_check).toContain(service.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-healthcheck-path']);
      });

      test('THEN nodeport-l4 differs from nodeport-local only in the traffic policy (and the health check that follows from it): ETP Cluster, TCP on the NodePort', () => {
        const facts = awsFacts('nodeport-l4');
        const service = backend('nodeport-l4');
        const local = backend('nodeport-local');
        expect([facts.lb_kind, facts.target_type, facts.source_nat, facts.client_ip_via]).toEqual(['nlb', 'instance', true, 'none']);
        expect(service.spec.type).toBe('LoadBalancer');
        expect(service.spec.external_traffic_policy).toBe('Cluster');
        expect(service.spec.load_balancer_class).toBe(local.spec.load_balancer_class);
        expect(service.metadata.annotations).toEqual({
          ...local.metadata.annotations,
          'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol': 'tcp',
          'service.beta.kubernetes.io/aws-load-balancer-healthcheck-port': 'traffic-port',
          'service.beta.kubernetes.io/aws-load-balancer-healthcheck-path': undefined,
          'service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags': 'hoplab-exposure=nodeport-l4',
        });
      });

      test('THEN gateway: a GatewayClass of the ALB Gateway controller, an internet-facing LoadBalancerConfiguration, ip targets, an HTTPRoute to a ClusterIP Service', () => {
        const facts = awsFacts('gateway');
        expect([facts.lb_kind, facts.target_type, facts.client_ip_via]).toEqual(['alb', 'ip', 'x-forwarded-for']);
        expect(gatewayObject('GatewayClass').spec).toEqual({ controllerName: 'gateway.k8s.aws/alb' });
        expect(gatewayObject('LoadBalancerConfiguration')).toMatchObject({ apiVersion: 'gateway.k8s.aws/v1', spec: { scheme: 'internet-facing', tags: { 'hoplab-exposure': 'gateway' } } });
        expect(gatewayObject('Gateway').spec).toEqual({
          gatewayClassName: gatewayObject('GatewayClass').metadata.name,
          infrastructure: { parametersRef: { group: 'gateway.k8s.aws', kind: 'LoadBalancerConfiguration', name: 'echo-gateway' } },
          listeners: [{ name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: { namespaces: { from: 'Same' } } }],
        });
        expect(gatewayObject('TargetGroupConfiguration').spec).toMatchObject({ targetReference: { name: 'echo-gateway' }, defaultConfiguration: { targetType: facts.target_type } });
        expect(gatewayObject('HTTPRoute').spec.rules).toEqual([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'echo-gateway', port: 80 }] }]);
        expect(backend('gateway').spec.type).toBe('ClusterIP');
        expect(backend('gateway').metadata.name).toBe('echo-gateway');
      });

      test('THEN gateway: a post-install hook waits until the controller marks the Gateway Programmed', () => {
        const job = gatewayObject('Job');
        expect(job.metadata.annotations['helm.sh/hook']).toBe('post-install,post-upgrade');
        expect(job.spec.template.spec.containers[0]).toMatchObject({
          // The default cluster is 1.34: kubectl of the same minor.
          image: 'registry.k8s.io/kubectl:v1.34.3',
          args: ['wait', '--namespace', expect.stringContaining('kubernetes_namespace_v1'), '--for=condition=Programmed', 'gateway/echo-gateway', '--timeout=780s'],
        });
        expect(gatewayObject('Role').rules).toEqual([{ apiGroups: ['gateway.networking.k8s.io'], resources: ['gateways'], verbs: ['get', 'list', 'watch'] }]);
      });

      test('THEN the Gateway API CRDs are the pinned local chart, created before the controller starts', () => {
        expect(crds.config).toMatchObject({ name: 'gateway-api-crds', namespace: 'kube-system', wait: true });
        expect(crds.config.chart).toMatch(/^\.\.\/\.\.\/charts\/gateway-api-crds-[0-9A-F]{32}$/);
        expect(release.config.depends_on).toEqual([crds.address]);
      });

      test('THEN native-l4: an NLB Service with ip targets, client IP preservation on and no NodePorts', () => {
        const facts = awsFacts('native-l4');
        const service = backend('native-l4');
        expect([facts.lb_kind, facts.target_type, facts.source_nat, facts.client_ip_via, facts.expected_hops]).toEqual(['nlb', 'ip', false, 'tcp-source', 1]);
        expect(service.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-nlb-target-type']).toBe('ip');
        expect(service.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-target-group-attributes']).toMatch(/(^|,)preserve_client_ip\.enabled=true(,|$)/);
        expect(service.spec.allocate_load_balancer_node_ports).toBe(false);
        expect(service.spec.external_traffic_policy).toBe('Cluster');
      });
    });

    test('THEN every Kubernetes object is valid against the Kubernetes API schema', () => {
      const objects = kubernetesObjects(json);
      expect(objects.map((o) => o.address.split('.')[0]).sort()).toEqual([
        'kubernetes_daemon_set_v1',
        'kubernetes_deployment_v1',
        'kubernetes_ingress_v1',
        'kubernetes_ingress_v1',
        'kubernetes_namespace_v1',
        'kubernetes_namespace_v1',
        'kubernetes_service_v1',
        'kubernetes_service_v1',
        'kubernetes_service_v1',
        'kubernetes_service_v1',
        'kubernetes_service_v1',
        'kubernetes_service_v1',
      ]);
      for (const object of objects) {
        expect(() => object.validate()).not.toThrow();
      }
    });

    test("THEN every object of the Gateway release is valid: Gateway API objects against the v1.6.0 CRDs, the controller's against its v3.5.0 CRDs", () => {
      const objects = manifestObjects(json);
      expect(objects.map((o) => o.object.kind)).toEqual([
        'GatewayClass',
        'LoadBalancerConfiguration',
        'Gateway',
        'TargetGroupConfiguration',
        'HTTPRoute',
        'ServiceAccount',
        'Role',
        'RoleBinding',
        'Job',
      ]);
      for (const object of objects) {
        expect(() => object.validate()).not.toThrow();
      }
    });

    test('GIVEN a Gateway with a field its CRD does not have THEN the schema check fails (the check can fail)', () => {
      const [, , gateway] = manifestObjects(json);
      const broken = { ...gateway.object, spec: { ...(gateway.object.spec as object), listeners: [{ name: 'http', protocol: 'HTTP', port: 'eighty' }] } };
      expect(() => manifestObjects({ resource: { kubernetes_manifest: { x: { manifest: broken } } } })[0].validate()).toThrow(/Gateway/);
    });

    test('THEN the stack matches the snapshot', () => {
      expect(portable(text)).toMatchSnapshot();
    });
  });

  describe('GIVEN aws.datapath cilium', () => {
    test('THEN the SNATing exposures name Cilium, and only for Pods on another node; the rest keep their words', () => {
      const { json } = synthAwsLb({ aws: { datapath: 'cilium' } });
      const seenAs = (mode: string) => (json.output[exposureOutputName(mode as never)].value as { client_ip_seen_as: string }).client_ip_seen_as;
      expect(seenAs('nodeport-l4')).toBe('a node address (SNAT by Cilium (eBPF), when the Pod is on another node) as TCP source, and no header: the client address is lost');
      expect(seenAs('nodeport')).toMatch(/^a node address \(SNAT by Cilium \(eBPF\), when the Pod is on another node\) as TCP peer/);
      expect(seenAs('native')).toBe(awsFacts('native').client_ip_seen_as);
    });
  });

  describe('GIVEN app.allowedSourceCidrs narrowed to two blocks', () => {
    const blocks = ['203.0.113.0/24', '198.51.100.7/32'];
    const { json } = synthAwsLb({ app: { allowedSourceCidrs: blocks } });

    test('THEN every load balancer admits only them: both ALB Ingresses, the three NLB Services and the ALB Gateway', () => {
      const ingresses = Object.values(json.resource.kubernetes_ingress_v1 as Record<string, Json>);
      const services = Object.values(json.resource.kubernetes_service_v1 as Record<string, Json>).filter((s) => s.spec.type === 'LoadBalancer');
      const lbConfig = manifestObjects(json).find((o) => o.object.kind === 'LoadBalancerConfiguration')!;
      expect(ingresses.map((i) => i.metadata.annotations['alb.ingress.kubernetes.io/inbound-cidrs'])).toEqual([blocks.join(','), blocks.join(',')]);
      expect(services.map((s) => s.spec.load_balancer_source_ranges)).toEqual([blocks, blocks, blocks]);
      expect((lbConfig.object.spec as Json).sourceRanges).toEqual(blocks);
    });

    test("THEN the LoadBalancerConfiguration with sourceRanges is valid against the controller's v3.5.0 CRD, and the Services against the Kubernetes API schema", () => {
      for (const object of [...manifestObjects(json), ...kubernetesObjects(json)]) {
        expect(() => object.validate()).not.toThrow();
      }
    });
  });

  describe('GIVEN a config that selects exposures and sizes', () => {
    const { json, lb } = synthAwsLb({
      name: 'team-a',
      exposures: ['nodeport-local'],
      app: { replicas: 3, image: 'registry.k8s.io/echoserver:1.9' },
      aws: { nodeCount: 3 },
    });

    test('THEN only the selected exposure exists, with its output', () => {
      expect(Object.keys(json.output)).toEqual(['exposure_nodeport_local']);
      expect(json.resource.kubernetes_ingress_v1).toBeUndefined();
      expect(Object.keys(json.resource.kubernetes_service_v1)).toEqual([expect.stringMatching(/^exposure-nodeport-local_/)]);
      const deployment = resourceOf(json, 'kubernetes_deployment_v1');
      expect(deployment.config.depends_on).toEqual([resourceOf(json, 'kubernetes_service_v1').address]);
    });

    test('THEN replicas, image and environment name come from the config', () => {
      const deployment = resourceOf(json, 'kubernetes_deployment_v1');
      expect(deployment.config.spec.replicas).toBe('3');
      expect(deployment.config.spec.template.spec.container[0].image).toBe('registry.k8s.io/echoserver:1.9');
      expect(json.data?.terraform_remote_state).toHaveProperty(['cross-stack-reference-input-team-a-aws-cluster']);
    });

    test('THEN synth warns that as many replicas as nodes can hide the extra hop', () => {
      expect(lb.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN).map((m) => m.data)).toEqual([
        "app.replicas (3) is not below aws.nodeCount (3): every node may host a Pod, so the nodeport exposure's extra hop may not show; use fewer replicas than nodes",
      ]);
    });
  });

  describe('GIVEN a bad value for what this stack reads THEN synth stops with one clear line per problem', () => {
    const header = 'hoplab: the lab config (test) has 1 problem; nothing was synthesized:\n  - ';
    test.each([
      [
        { aws: { loadBalancerController: { chartVersion: '1.8.0' } } },
        'aws.loadBalancerController.chartVersion: "1.8.0" is not supported; allowed: 3.5.0. hoplab ships the IAM policy of these releases only.',
      ],
      [{ app: { replicas: 0 } }, 'app.replicas: 0 must be at least 1 replicas (allowed: 1 to 50)'],
      [{ app: { replicas: 2.5 } }, 'app.replicas: 2.5 must be a whole number of replicas from 1 to 50'],
      [{ app: { image: 'echoserver' } }, 'app.image: "echoserver" is not a pinned image reference: name it with a tag or digest, e.g. "registry.k8s.io/echoserver:1.10"'],
      [{ exposures: ['ingress'] }, 'exposures[0]: "ingress" is not supported; allowed: native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4. See docs/exposures.md.'],
      [{ exposures: ['native', 'native'] }, 'exposures: ["native","native"] lists "native" more than once; list each exposure mode once'],
    ])('%j', (raw, problem) => {
      expect(() => synthAwsLb(raw as never)).toThrow(header + problem);
    });
  });

  test.each(EKS_VERSIONS.map((v) => [v]))('GIVEN EKS %s and the gateway exposure WHEN synthesized THEN the wait Job runs kubectl of the same minor', (kubernetesVersion) => {
    const { json } = synthAwsLb({ exposures: ['gateway'], aws: { kubernetesVersion } });
    const release = resourceOf(json, 'helm_release', 'exposure-gateway_');
    const job = (parse(release.config.values[0]).manifests as { kind: string; spec: Json }[]).find((o) => o.kind === 'Job')!;
    expect(job.spec.template.spec.containers[0].image).toMatch(new RegExp(`^registry\\.k8s\\.io/kubectl:v${kubernetesVersion.replace('.', '\\.')}\\.\\d+$`));
  });
});

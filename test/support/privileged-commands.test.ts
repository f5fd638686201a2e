/**
 * The handout guard (privileged-commands.ts) on commands it must refuse and
 * ones it must let through: today's attendee steps pass, the host's fail.
 */
import { attendeeCommandProblems } from './privileged-commands';

describe('attendeeCommandProblems', () => {
  test.each([
    'kubectl -n hoplab get pods -o wide',
    'kubectl -n {{ns}} patch service echo-nodeport-local -p \'{"spec":{"externalTrafficPolicy":"Cluster"}}\'',
    'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data',
    'kubectl get nodes -o wide',
    'kubectl logs -n hoplab-inspector -l app.kubernetes.io/name=hoplab-inspector --prefix --since=35s',
    'kubectl logs -n hoplab-inspector $(kubectl get pods -n hoplab-inspector -l app.kubernetes.io/name=hoplab-inspector --field-selector spec.nodeName=<node> -o name) --since=35s',
    'kubectl --kubeconfig lab.kubeconfig --context lab-eks auth can-i patch deployments -n hoplab   # yes; "get nodes" works, "get secrets -A" does not',
    'kubectl -n hoplab exec -it deploy/echo -- sh',
    'kubectl --namespace=hoplab port-forward svc/echo 8080:80',
    "while sleep 1; do curl -s -m 2 -o /dev/null -w '%{http_code} %{time_total}s\\n' http://34.120.11.24/; done",
  ])('GIVEN %s THEN it is an attendee’s', (command) => {
    expect(attendeeCommandProblems(command)).toEqual([]);
  });

  test.each([
    ['kubectl -n kube-system get pods', 'names the namespace kube-system'],
    ['kubectl get pods --namespace default', 'names the namespace default'],
    ['kubectl -n hoplab-inspector delete pod x', 'names the namespace hoplab-inspector'],
    ['kubectl exec -it deploy/echo -- sh', 'uses exec outside hoplab'],
    ['kubectl -n kube-system port-forward svc/hubble-ui 12000:80', 'uses port-forward outside hoplab'],
    ['cilium hubble port-forward &', 'uses port-forward outside hoplab'],
    ['kubectl -n gke-managed-dpv2-observability exec -it deployment/hubble-relay -c hubble-cli -- hubble observe --namespace hoplab --follow', 'uses exec outside hoplab'],
    ['kubectl debug node/ip-10-0-1-2 -n hoplab -it --image=busybox', 'gives root on a node'],
    ['kubectl -n hoplab debug -it echo-abc --image=busybox --profile=sysadmin', 'gives root on a node'],
    ['kubectl run x --image=busybox --overrides=\'{"spec":{"hostNetwork":true}}\'', 'uses --overrides outside hoplab'],
    ['kubectl -A exec x -- sh', 'uses exec outside hoplab'],
  ])('GIVEN %s THEN it is refused: %s', (command, problem) => {
    expect(attendeeCommandProblems(command).map((p) => p.split(':')[0])).toContain(problem);
  });
});

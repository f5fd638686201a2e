/**
 * What no attendee is handed in a handout: root on a node (`kubectl debug
 * node/... --profile=sysadmin`, which Pod Security baseline refuses in
 * `hoplab` anyway) or a shell in kube-system (`kubectl -n kube-system exec`).
 * A step that matches it must be marked host only.
 */
export const PRIVILEGED_COMMAND = /kubectl debug|--profile=sysadmin|exec .*kube-system|kube-system .*exec/;

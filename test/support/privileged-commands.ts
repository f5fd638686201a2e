/**
 * What no attendee is handed in a handout, step by step: a command must stay
 * in their own namespace, `hoplab`, and do nothing there that reaches past
 * what Pod Security baseline and their RBAC are for. A step whose command
 * {@link attendeeCommandProblems} finds anything in must be marked host only.
 *
 * Each invocation in a command (split at pipes, `;`, `&&`, `$(...)`) is read:
 * - a namespace it names (`-n`, `--namespace`, `-A`/`--all-namespaces`) other
 *   than `hoplab`: refused, except the datapath inspector's own namespace
 *   read with `kubectl logs`, `get` or `describe` (attendees read its log
 *   with their view access; lib/model/inspector.ts);
 * - `exec`, `attach`, `cp`, `port-forward`, `debug`, `--overrides` or
 *   `--privileged`: refused unless the invocation names `hoplab` and no other
 *   namespace (a command that names none runs wherever the kubeconfig says);
 * - root on a node (`kubectl debug node/...`, `--profile=sysadmin`): refused
 *   anywhere.
 * Shell comments are not read; `{{ns}}`, the exercises' name for the app's
 * namespace, is `hoplab`.
 */
import { APP_NAMESPACE } from '../../lib/model/names';
import { INSPECTOR_NAMESPACE } from '../../lib/model/inspector';

/** What reaches past an attendee's namespace or their rights in it, wherever it is run. */
const NODE_ROOT = /(?:^|\s)debug\s+(?:\S+\s+)*node\/|--profile=sysadmin/;
/** What is an attendee's only inside `hoplab`. */
const INSIDE_ONLY = /(?:^|\s)(exec|attach|cp|port-forward|debug)(?=\s|$)|(--overrides|--privileged)(?==|\s|$)/;
/** kubectl's read-only verbs, which may name the inspector's namespace. */
const READ_VERBS = new Set(['logs', 'get', 'describe']);
/** kubectl flags that take the next word as their value. */
const VALUED_FLAGS = new Set(['-n', '--namespace', '--context', '--kubeconfig', '-l', '--selector', '-c', '--container', '-o', '--output', '--field-selector']);

/** The kubectl verb of an invocation (the first word after `kubectl` that is neither a flag nor a flag's value), or undefined. */
function kubectlVerb(words: readonly string[]): string | undefined {
  const at = words.indexOf('kubectl');
  if (at < 0) return undefined;
  for (let i = at + 1; i < words.length; i += 1) {
    const word = words[i];
    if (VALUED_FLAGS.has(word)) i += 1;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/** Why `command` is not an attendee's to run (nothing when it is). */
export function attendeeCommandProblems(command: string): string[] {
  const text = command.replace(/\{\{ns\}\}/g, APP_NAMESPACE).replace(/(^|\s)#.*$/gm, '$1');
  const problems: string[] = [];
  for (const invocation of text.split(/\|\|?|;|&&?|\$\(|\)|`/)) {
    const words = invocation.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const named = [...invocation.matchAll(/(?:^|\s)(?:-n|--namespace)(?:=|\s+)(\S+)/g)].map((m) => m[1].replace(/^['"]|['"]$/g, ''));
    const every = /(?:^|\s)(?:-A|--all-namespaces)(?=\s|$)/.test(invocation);
    const verb = kubectlVerb(words);
    for (const namespace of named.filter((n) => n !== APP_NAMESPACE)) {
      if (namespace === INSPECTOR_NAMESPACE && verb !== undefined && READ_VERBS.has(verb)) continue;
      problems.push(`names the namespace ${namespace}: \`${invocation.trim()}\``);
    }
    if (NODE_ROOT.test(invocation)) problems.push(`gives root on a node: \`${invocation.trim()}\``);
    const inside = INSIDE_ONLY.exec(invocation);
    if (inside && (every || named.length === 0 || named.some((n) => n !== APP_NAMESPACE))) {
      problems.push(`uses ${inside[1] ?? inside[2]} outside ${APP_NAMESPACE}: \`${invocation.trim()}\``);
    }
  }
  return problems;
}

/**
 * Many waits on one abort signal (a watch's sleeping senders, its requests in
 * flight) through a single `abort` listener on the signal: Node warns
 * (`MaxListenersExceededWarning ... AbortSignal`) once more than 10 listeners
 * are on one signal at a time, and a listener per wait is what it warns about.
 */

/** A signal's waits and the one listener that runs them. */
interface Fanout {
  readonly waits: Set<() => void>;
  readonly fire: () => void;
}

const FANOUTS = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once when `signal` aborts (at once when it already has),
 * and returns the function that ends the wait: call it when the wait ends
 * another way, or the listener stays. The signal holds one `abort` listener
 * however many wait on it, and none once every wait has ended.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  let fanout = FANOUTS.get(signal);
  if (!fanout) {
    const waits = new Set<() => void>();
    const fire = () => {
      FANOUTS.delete(signal);
      const all = [...waits];
      waits.clear();
      for (const wait of all) wait();
    };
    fanout = { waits, fire };
    FANOUTS.set(signal, fanout);
    signal.addEventListener('abort', fire, { once: true });
  }
  const { waits, fire } = fanout;
  const wait = () => listener();
  waits.add(wait);
  return () => {
    if (!waits.delete(wait) || waits.size > 0) return;
    // The last wait ended: its listener goes too (the next wait adds one again).
    FANOUTS.delete(signal);
    signal.removeEventListener('abort', fire);
  };
}

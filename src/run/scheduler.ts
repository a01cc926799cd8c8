// The scheduler: starts jobs in dependency order, as many at a time as `-j` allows and as fit in the
// cores and memory left. It knows nothing of processes: `run` does the job and says whether it
// succeeded. A failure blocks everything downstream; without keepGoing nothing new starts after it.

export interface SchedJob {
  id: string;
  dependsOn: readonly string[];
  threads: number;
  memoryMb?: number;
  /** The rule's `priority`: among ready jobs, higher goes first (then plan order). */
  priority?: number;
}

export interface Limits {
  jobs: number;
  cores: number;
  memoryMb: number;
}

export interface ScheduleResult {
  done: Set<string>;
  failed: Set<string>;
  /** Job id → the failed job it needed. */
  blocked: Map<string, string>;
  /** Jobs never started because the run stopped (a failure without -k, or an interrupt). */
  notStarted: Set<string>;
}

/** Jobs must be in dependency order; dependencies outside the list are taken as satisfied. */
export function schedule<J extends SchedJob>(
  jobs: readonly J[],
  limits: Limits,
  run: (job: J) => Promise<boolean>,
  options: {
    keepGoing: boolean;
    signal: AbortSignal;
    /**
     * Told, each time jobs have been started, the ready jobs next in line (at most `lookahead`, in
     * the order they would start), so their start can be prepared while the slots are busy.
     */
    upcoming?: (next: readonly J[]) => void;
    lookahead?: number;
  },
): Promise<ScheduleResult> {
  const index = new Map<string, number>();
  jobs.forEach((j, i) => index.set(j.id, i));
  const waiting = new Array<number>(jobs.length).fill(0);
  const dependents: number[][] = jobs.map(() => []);
  jobs.forEach((j, i) => {
    for (const d of j.dependsOn) {
      const k = index.get(d);
      if (k === undefined) continue;
      waiting[i]! += 1;
      dependents[k]!.push(i);
    }
  });
  // Ready jobs, kept in order of priority (higher first), then plan order so earlier phases go first.
  const prio = jobs.map((j) => j.priority ?? 0);
  const before = (a: number, b: number) => prio[a]! > prio[b]! || (prio[a] === prio[b] && a < b);
  const ready: number[] = [];
  for (let i = 0; i < jobs.length; i++) if (waiting[i] === 0) ready.push(i);
  if (prio.some((p) => p !== 0)) ready.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const result: ScheduleResult = { done: new Set(), failed: new Set(), blocked: new Map(), notStarted: new Set() };
  const settled = new Uint8Array(jobs.length);
  let running = 0;
  let threads = 0;
  let memory = 0;
  let stopping = options.signal.aborted;

  return new Promise((resolve) => {
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      for (let i = 0; i < jobs.length; i++) if (!settled[i]) result.notStarted.add(jobs[i]!.id);
      resolve(result);
    };
    const block = (from: number, cause: string) => {
      const stack = [...dependents[from]!];
      while (stack.length > 0) {
        const i = stack.pop()!;
        if (settled[i]) continue;
        settled[i] = 1;
        result.blocked.set(jobs[i]!.id, cause);
        stack.push(...dependents[i]!);
      }
    };
    const insertReady = (i: number) => {
      let at = ready.length;
      while (at > 0 && before(i, ready[at - 1]!)) at--;
      ready.splice(at, 0, i);
    };
    const pump = () => {
      if (!stopping) {
        for (let k = 0; k < ready.length && running < limits.jobs; ) {
          const i = ready[k]!;
          const j = jobs[i]!;
          const mem = j.memoryMb ?? 0;
          if (threads + j.threads > limits.cores || memory + mem > limits.memoryMb) {
            k++;
            continue;
          }
          ready.splice(k, 1);
          start(i);
        }
        if (options.upcoming !== undefined && ready.length > 0) {
          const next: J[] = [];
          const n = options.lookahead ?? limits.jobs;
          for (let k = 0; k < ready.length && k < n; k++) next.push(jobs[ready[k]!]!);
          options.upcoming(next);
        }
      }
      if (running === 0 && (stopping || ready.length === 0)) finish();
    };
    const start = (i: number) => {
      const j = jobs[i]!;
      const mem = j.memoryMb ?? 0;
      running += 1;
      threads += j.threads;
      memory += mem;
      settled[i] = 1;
      void run(j)
        .catch(() => false)
        .then((ok) => {
          running -= 1;
          threads -= j.threads;
          memory -= mem;
          if (ok) {
            result.done.add(j.id);
            for (const d of dependents[i]!) if (--waiting[d]! === 0 && !settled[d]) insertReady(d);
          } else {
            result.failed.add(j.id);
            block(i, j.id);
            if (!options.keepGoing) stopping = true;
          }
          pump();
        });
    };
    options.signal.addEventListener(
      'abort',
      () => {
        stopping = true;
        if (running === 0) pump();
      },
      { once: true },
    );
    pump();
  });
}

// A job's processes live in their own process group (spawned with detached: true), so one signal
// reaches the shell and everything it started. Stopping is SIGTERM to the group, a grace period,
// then SIGKILL to whatever is left.

/** True while any process of the group exists. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM, wait up to graceMs for the group to go, then SIGKILL. Resolves when done. */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(25);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  // Give the kernel a moment to deliver SIGKILL (zombies of another parent may keep the id alive).
  for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(25);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The grace between SIGTERM and SIGKILL: OXO_FLOW_KILL_GRACE seconds, default 10. */
export function killGraceMs(env: Readonly<Record<string, string | undefined>>): number {
  const v = Number(env.OXO_FLOW_KILL_GRACE);
  return Number.isFinite(v) && v >= 0 && env.OXO_FLOW_KILL_GRACE !== '' && env.OXO_FLOW_KILL_GRACE !== undefined ? v * 1000 : 10_000;
}

// A run-state record as the runner writes one (src/run/state.ts), for tests that write state files
// themselves: the rule is the id's part before `[`, the hash is made from the id.
import type { JobRecord } from '../../src/run/state.js';

export const jobRecord = (id: string, status: JobRecord['status'], at: string, extra: Partial<JobRecord> = {}): JobRecord => ({
  version: 1,
  id,
  rule: id.replace(/\[.*$/, ''),
  hash: `h-${id}`,
  status,
  startedAt: at,
  ...(status !== 'running' ? { endedAt: at } : {}),
  preexisting: [],
  executor: 'local',
  log: '',
  ...extra,
});

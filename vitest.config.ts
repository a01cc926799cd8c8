import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Vitest orders files by the durations it cached on the last run, and by file size without a cache
 * (a fresh clone, CI). The files that run real tools, Slurm and the built CLI are the long ones; they
 * go first so that two workers finish together instead of one waiting on a late 20-second file.
 */
const SLOW_FIRST = [/\/test\/run\//, /\/test\/snakemake\//, /\/test\/cli\/(safe-values|ai-call|ai-review-provider|ai-lookup|templates-run)\.test\.ts$/, /\/test\/ai\/mcp\/conformance\.test\.ts$/];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (SLOW_FIRST.some((re) => re.test(f.moduleId)) ? 0 : 1);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Safety nets for a hang, not limits on speed: no test may fail because a busy host is slow.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two cores here and in CI: keep parallelism modest so real-server tests stay stable.
    maxWorkers: 2,
    // Test files in one worker share loaded modules instead of importing the sources again per file:
    // about a sixth of the suite's CPU time went to re-importing. Tests keep no state in modules, and
    // the one that changes process.env puts it back.
    isolate: false,
    sequence: { sequencer: SlowFirst },
  },
});

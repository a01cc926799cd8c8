// Plan a workflow against a real folder (or against nothing), for the template and example tests.
import { readdirSync, statSync } from 'node:fs';
import type { PlanFs } from '../../src/workflow/plan/index.js';

/** The real file system. */
export const diskFs: PlanFs = {
  stat(p) {
    try {
      return { mtimeMs: statSync(p).mtimeMs };
    } catch {
      return undefined;
    }
  },
  list(d) {
    try {
      return readdirSync(d);
    } catch {
      return undefined;
    }
  },
};

/** A file system with no files at all: every input that no rule makes is missing. */
export const emptyFs: PlanFs = { stat: () => undefined, list: () => undefined };

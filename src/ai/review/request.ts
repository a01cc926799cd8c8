// What an `--ai` review is asked to do: which command, how AI was asked for, the workflow and the
// steps its rules name (for choosing which built-in skills to list). Built by the command line.
import type { AiTable } from '../../workflow/model.js';

export interface AiReviewRequest {
  command: 'validate' | 'lint' | 'dry-run';
  /** --ai (true), --no-ai (false), neither (undefined: the workflow or ai.toml decides). */
  flag: boolean | undefined;
  skillFlags: string[];
  /** Absolute path of the workflow, when one was found. */
  workflowPath?: string;
  workflowAi?: AiTable;
  /** One line per rule (name, description, first command), to match built-in skills against. */
  steps?: string[];
  /** Why the review cannot run although it was asked for (e.g. the workflow did not load). */
  skipped?: string;
}

// PLACEHOLDER: replaced by the module's owner. Never shipped as is.
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';

const notYet = async (_opts: Record<string, unknown>, _ctx: CliContext): Promise<CommandResult> => {
  throw new Error('ai skills is not built yet');
};
export const skillsList = notYet;
export const skillsShow = notYet;
export const skillsValidate = notYet;
export const skillsNew = notYet;

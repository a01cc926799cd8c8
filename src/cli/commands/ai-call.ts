// PLACEHOLDER: replaced by the module's owner. Never shipped as is.
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';

export async function aiCall(_opts: Record<string, unknown>, _ctx: CliContext): Promise<CommandResult> {
  throw new Error('ai-call is not built yet');
}

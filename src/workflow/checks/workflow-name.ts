import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import type { Locator } from './locate.js';

/** E001: the workflow needs a name (the key's presence is the schema's job, E025). */
export function checkWorkflowName(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  if (w.meta.name.trim() === '') out.push(diagnostic('E001', 'workflow name is empty', loc.at(['workflow', 'name'])));
}

// W001 no description, W002 no author, W027 a format_version this release does not read.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

export function lintWorkflowMeta({ workflow: w, loc, out }: LintContext): void {
  if (!w.meta.description?.trim()) out.push(diagnostic('W001', `workflow "${w.meta.name}" has no description`, loc.at(['workflow'])));
  if (!w.meta.author?.trim()) out.push(diagnostic('W002', `workflow "${w.meta.name}" has no author`, loc.at(['workflow'])));
  const v = w.meta.formatVersion;
  if (v !== undefined && !/^1(\.\d+)*$/.test(v.trim())) {
    out.push(diagnostic('W027', `format_version "${v}" is not supported (this release reads 1.x); the file is read as 1.x`, loc.at(['workflow', 'format_version'])));
  }
}

// `oxo-flow template`: list the built-in templates, or write one to a file.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { TEMPLATES, countRules, findTemplate, nearestName, templateFileUrl, templateNames } from '../../workflow/templates/index.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';

export interface TemplateOptions {
  name?: string;
  output?: string;
  force?: boolean;
  /** --ai INTENT: draft a workflow with the model (template-ai.ts). */
  ai?: string;
  fromFile?: string[];
  skill?: string[];
}

export async function template(opts: TemplateOptions, ctx: CliContext): Promise<CommandResult> {
  if (opts.ai !== undefined) {
    if (opts.name !== undefined) return failure('usage', [diagnostic('CLI001', `give either a template name (${opts.name}) or --ai "INTENT", not both`)]);
    const { templateAi } = await import('../template-ai.js');
    return templateAi({ ...opts, ai: opts.ai }, ctx);
  }
  if (opts.name === undefined) return listTemplates();
  return writeTemplate(opts.name, opts, ctx);
}

/** The text of a built-in template, or a CLI003 diagnostic when the package is incomplete. */
export function readTemplateText(name: string): { text: string } | { error: CommandResult } {
  const url = templateFileUrl(name);
  try {
    return { text: readFileSync(url, 'utf8') };
  } catch (err) {
    return {
      error: failure('failed', [
        diagnostic('CLI003', `cannot read the built-in template ${name}: ${(err as Error).message}`, {
          file: fileURLToPath(url),
          hint: 'the oxo-flow installation looks incomplete; reinstall it',
        }),
      ]),
    };
  }
}

/** CLI020 with "did you mean" and the list of names. */
export function unknownTemplate(name: string): CommandResult {
  const names = templateNames();
  const near = nearestName(name, names);
  const guess = near !== undefined ? ` (did you mean ${near}?)` : '';
  return failure('usage', [
    diagnostic('CLI020', `unknown template "${name}"${guess}`, {
      hint: `built-in templates: ${names.join(', ')}`,
    }),
  ], { template: name, suggestion: near ?? null, templates: names });
}

function listTemplates(): CommandResult {
  const rows: { name: string; description: string; rules: number }[] = [];
  for (const t of TEMPLATES) {
    const read = readTemplateText(t.name);
    if ('error' in read) return read.error;
    rows.push({ name: t.name, description: t.description, rules: countRules(read.text) });
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  return {
    outcome: 'ok',
    json: { templates: rows },
    human: (style) =>
      [
        style.bold(`${rows.length} built-in templates`),
        ...rows.map((r) => `  ${style.cyan(r.name.padEnd(width))}  ${r.description} ${style.dim(`(${r.rules} rules)`)}`),
        '',
        `Write one with ${style.bold('oxo-flow template NAME [-o PATH]')}, or start a project with ${style.bold('oxo-flow init DIR -t NAME')}.`,
      ].join('\n'),
  };
}

function writeTemplate(name: string, opts: TemplateOptions, ctx: CliContext): CommandResult {
  const info = findTemplate(name);
  if (info === undefined) return unknownTemplate(name);
  const read = readTemplateText(info.name);
  if ('error' in read) return read.error;

  const target = resolveTarget(opts.output, info.name, ctx.cwd);
  const shown = path.relative(ctx.cwd, target) || target;
  const written = writeFileAtomic(target, read.text, { overwrite: Boolean(opts.force) });
  if (!written.ok) {
    if (written.reason === 'exists') {
      return failure('failed', [diagnostic('CLI004', `${shown} already exists; not overwriting it`, { file: shown, hint: 'pass --force to overwrite it, or choose another path with -o' })], {
        template: info.name,
        path: target,
        written: false,
      });
    }
    return failure('failed', [diagnostic('CLI005', `cannot write ${shown}: ${written.message}`, { file: shown, hint: 'check that the folder exists and is writable' })], {
      template: info.name,
      path: target,
      written: false,
    });
  }
  const rules = countRules(read.text);
  return {
    outcome: 'ok',
    json: { template: info.name, path: target, rules, written: true },
    human: (style) =>
      `${style.green('✓')} wrote ${style.bold(shown)} from template ${info.name} (${rules} rules)\n` +
      `  next: read its comment header, then ${style.bold(`oxo-flow validate ${shown}`)} and ${style.bold(`oxo-flow dry-run ${shown}`)}`,
  };
}

/** `-o` may name a file or an existing directory; without it, ./<name>.oxoflow. */
export function resolveTarget(output: string | undefined, name: string, cwd: string): string {
  if (output === undefined) return path.resolve(cwd, `${name}.oxoflow`);
  const full = path.resolve(cwd, output);
  if (output.endsWith('/') || output.endsWith(path.sep) || isDirectory(full)) return path.join(full, `${name}.oxoflow`);
  return full;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

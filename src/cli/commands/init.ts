// `oxo-flow init NAME [-t TEMPLATE]`: a new project folder that validates and dry-runs at once.
// The project is assembled in a temporary sibling folder and renamed into place, so a failure
// half-way leaves nothing behind.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import {
  condaEnvFiles,
  expandBraces,
  findTemplate,
  placeholderContent,
  projectGitignore,
  projectReadme,
  renameWorkflow,
  templateAssetUrl,
} from '../../workflow/templates/index.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';
import { readTemplateText, unknownTemplate } from './template.js';

export interface InitOptions {
  name: string;
  template?: string;
}

const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function init(opts: InitOptions, ctx: CliContext): Promise<CommandResult> {
  const target = path.resolve(ctx.cwd, opts.name);
  const projectName = path.basename(target);
  if (!PROJECT_NAME.test(projectName)) {
    return failure('usage', [diagnostic('CLI022', `"${projectName}" is not a usable project name`)], { project: opts.name });
  }
  const info = findTemplate(opts.template ?? 'hello-world');
  if (info === undefined) return unknownTemplate(opts.template ?? '');
  const read = readTemplateText(info.name);
  if ('error' in read) return read.error;

  const shown = path.relative(ctx.cwd, target) || '.';
  const occupied = occupiedReason(target);
  if (occupied !== undefined) {
    return failure('failed', [diagnostic('CLI021', `${shown} ${occupied}; init only creates new projects`, { file: shown })], {
      project: projectName,
      path: target,
      created: false,
    });
  }

  const workflowText = renameWorkflow(read.text, projectName);
  const envFiles = condaEnvFiles(workflowText);
  const placeholders = info.starterInputs.flatMap(expandBraces);
  const files = new Map<string, string | Uint8Array>();
  files.set('main.oxoflow', workflowText);
  files.set('README.md', projectReadme({ name: projectName, template: info.name, description: info.description, placeholders, envFiles }));
  files.set('.gitignore', projectGitignore());
  for (const env of envFiles) {
    const url = templateAssetUrl(env);
    if (url === undefined) continue;
    try {
      files.set(env, readFileSync(url));
    } catch (err) {
      return failure('failed', [
        diagnostic('CLI003', `cannot read the built-in environment ${env}: ${(err as Error).message}`, {
          hint: 'the oxo-flow installation looks incomplete; reinstall it',
        }),
      ]);
    }
  }
  for (const p of placeholders) files.set(p, placeholderContent(p));

  const staging = path.join(path.dirname(target), `.${projectName}.init-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    for (const dir of ['', 'data', 'results']) mkdirSync(path.join(staging, dir), { recursive: true });
    for (const [relative, content] of files) {
      mkdirSync(path.dirname(path.join(staging, relative)), { recursive: true });
      writeFileSync(path.join(staging, relative), content);
    }
    if (existsSync(target)) {
      // An existing empty folder (perhaps the shell's current one) is kept, not replaced: move
      // the staged entries into it. A file that appeared there meanwhile makes the rename fail.
      for (const entry of readdirSync(staging)) renameSync(path.join(staging, entry), path.join(target, entry));
      rmSync(staging, { recursive: true, force: true });
    } else {
      renameSync(staging, target);
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    return failure('failed', [
      diagnostic('CLI005', `cannot create ${shown}: ${(err as Error).message}`, { file: shown, hint: 'check that the parent folder exists and is writable' }),
    ]);
  }

  const created = [...files.keys(), 'data/', 'results/'].sort();
  return {
    outcome: 'ok',
    json: { project: projectName, path: target, template: info.name, files: created, placeholders },
    human: (style) =>
      [
        `${style.green('✓')} created ${style.bold(shown)}/ from template ${info.name}`,
        `  main.oxoflow, README.md, .gitignore, data/, results/${envFiles.length > 0 ? `, envs/ (${envFiles.length})` : ''}` +
          (placeholders.length > 0 ? `, ${placeholders.length} placeholder input${placeholders.length === 1 ? '' : 's'}` : ''),
        '',
        'next:',
        `  cd ${shown}`,
        '  oxo-flow validate',
        '  oxo-flow dry-run',
      ].join('\n'),
  };
}

/** Why `target` cannot become a new project, or undefined when it is free (absent or an empty folder). */
function occupiedReason(target: string): string | undefined {
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    return undefined;
  }
  if (!isDir) return 'exists and is not a directory';
  return readdirSync(target).length > 0 ? 'exists and is not empty' : undefined;
}

// The files `oxo-flow init` writes besides main.oxoflow: a README, a .gitignore, and placeholder
// inputs. Pure: each function returns text or bytes; the command does the writing.
import { gzipSync } from 'node:zlib';

export interface ProjectReadmeInput {
  name: string;
  template: string;
  description: string;
  placeholders: readonly string[];
  envFiles: readonly string[];
}

export function projectReadme(input: ProjectReadmeInput): string {
  const lines = [
    `# ${input.name}`,
    '',
    `An [oxo-flow](https://www.npmjs.com/package/oxo-flow) project, started from the \`${input.template}\` template:`,
    `${input.description}.`,
    '',
    '## Layout',
    '',
    '- `main.oxoflow`: the workflow. Its comment header says what it does and how to adapt it.',
    '- `data/`: your inputs.',
    '- `results/`, `logs/`: what the workflow writes (ignored by git).',
  ];
  if (input.envFiles.length > 0) lines.push('- `envs/`: the conda environments the rules run in.');
  lines.push('');
  if (input.placeholders.length > 0) {
    lines.push(
      '## Placeholder inputs',
      '',
      'These files are tiny stand-ins so that the dry-run plans every job. Replace them with your data',
      '(same names, or change the names in `main.oxoflow`):',
      '',
      ...input.placeholders.map((p) => `- \`${p}\``),
      '',
    );
  }
  lines.push(
    '## Commands',
    '',
    '```sh',
    'oxo-flow validate        # errors, with file:line:col and a hint',
    'oxo-flow lint            # risks and style',
    'oxo-flow dry-run         # the jobs a run would execute, with their commands',
    'oxo-flow graph           # the rule graph (-f dot or -f mermaid for drawings)',
    '```',
    '',
  );
  return lines.join('\n');
}

export function projectGitignore(): string {
  return [
    '# Produced by the workflow: rebuild them rather than commit them.',
    'results/',
    'logs/',
    // The run state and logs, but not what a project keeps there on purpose: its own skills
    // (`oxo-flow ai skills new`) and a site profile are part of the project.
    '.oxo-flow/*',
    '!.oxo-flow/skills/',
    '!.oxo-flow/profile.toml',
    '',
    '# Large or private inputs usually live outside git; remove these lines to track them.',
    'data/*.fastq.gz',
    'data/*.fq.gz',
    'data/*.bam',
    'data/*.cram',
    '',
  ].join('\n');
}

const placeholderNote = 'placeholder written by oxo-flow init: replace with your data';

/** Content for a placeholder input, plausible for its file type so that a curious `head` makes sense. */
export function placeholderContent(path: string): Uint8Array {
  const lower = path.toLowerCase();
  const text = placeholderText(lower.endsWith('.gz') ? lower.slice(0, -3) : lower);
  // Gzipped formats get real gzip, so `zcat` works on the placeholder.
  return lower.endsWith('.gz') ? gzipSync(Buffer.from(text)) : Buffer.from(text);
}

function placeholderText(path: string): string {
  if (path.endsWith('.fastq') || path.endsWith('.fq')) return `@${placeholderNote.replace(/ /g, '_')}\nACGTACGTAC\n+\nIIIIIIIIII\n`;
  if (path.endsWith('.fa') || path.endsWith('.fasta')) return `>${placeholderNote.replace(/ /g, '_')}\nACGTACGTACGTACGTACGT\n`;
  if (path.endsWith('.vcf')) return `##fileformat=VCFv4.2\n##${placeholderNote}\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n`;
  if (path.endsWith('.bed')) return `# ${placeholderNote}\nchr1\t0\t1000\n`;
  if (path.endsWith('.gtf')) return `# ${placeholderNote}\n`;
  if (path.endsWith('metadata.tsv')) return `sample-id\tgroup\n# ${placeholderNote}\n`;
  if (path.endsWith('.tsv')) return `# ${placeholderNote}\nread_1\tgeneA\t35\nread_2\tgeneB\t30\nread_3\tgeneA\t12\n`;
  return `${placeholderNote}\n`;
}

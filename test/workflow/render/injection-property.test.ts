// Property: no value is ever parsed as shell code, in any shell context. Random hostile values
// (canary payloads, quotes, newlines, here-document terminators, arithmetic subscripts, globs,
// controls, non-ASCII) × random scripts built from every shell context (plain words, single and
// double quotes, $( … ), backticks, here-documents quoted and unquoted, comments, pipelines, case,
// arithmetic, functions, loops, multi-line) → either the analysis refuses exactly the placeholders
// in the refused contexts (E041), or the script, run by a real sh (dash) and a real bash with the
// values in its environment, prints each value exactly as data and never creates a canary file.
//
// 20,000 generated commands (40 batches of 500), each batch run by one sh and one bash process side
// by side; the scripts are drawn from a pool of 1,500 random ones, so the parser runs 1,500 times.
// On failure fast-check prints the seed and the path: rerun with them in `fc.assert`'s options.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseShell } from '../../../src/workflow/render/shell-contexts.js';
import { renderScript } from '../../../src/workflow/render/script.js';
import { compileTemplate, type RenderValues } from '../../../src/workflow/render/template.js';

const BATCHES = Number(process.env.OXO_PROP_BATCHES ?? 40);
const PER_BATCH = 500;

const canaryDir = mkdtempSync(path.join(tmpdir(), 'oxo-canary-'));
afterAll(() => rmSync(canaryDir, { recursive: true, force: true }));

// Pieces of hostile values. CANARY is replaced by a per-command file path before the run.
const PAYLOADS = [
  '$(touch CANARY)',
  '`touch CANARY`',
  "'; touch CANARY; '",
  '"; touch CANARY; "',
  '\ntouch CANARY\n',
  'EOF\ntouch CANARY\nEOF\n',
  'a[$(touch CANARY)]',
  '$((1+1))',
  '${IFS}',
  '$IFS',
  '${OXO_CONFIG_V}',
  '$OXO_SAMPLE',
  '{sample}',
  "'\\''",
  '&& touch CANARY',
  '| touch CANARY',
  '; touch CANARY #',
  '>CANARY',
  '<(touch CANARY)',
  '*',
  '?',
  '[a-z]',
  '~',
  '~/',
  '-n',
  '-e',
  '--',
  '%s%n',
  '\\',
  '\\n',
  ...`'"$\`;|&<>(){}[]!#= \t\n-/.@:,+^`.split(''),
  'é',
  '名',
  '\u202e',
  '\u0007',
  '\u001b[31m',
  'S1',
  'raw/S2.fq',
];
const value = fc.array(fc.oneof(fc.constantFrom(...PAYLOADS), fc.string({ unit: 'grapheme-ascii', maxLength: 4 }).filter((s) => !s.includes('\u0001'))), { maxLength: 8 }).map((p) => p.join(''));

/** Trailing newlines go: what $( … ) and backticks do to their output. */
const subst = (v: string) => v.replace(/\n+$/, '');

interface Context {
  /** The snippet; `P` (followed by no capital or digit) stands for the placeholder. */
  text: string;
  /** What it prints for value v; undefined: every placeholder in it must be refused (E041). */
  out?: (v: string) => string;
  /** Valid only in bash (the parser's variant): not run by dash. */
  bashOnly?: boolean;
  /** Makes assignments elsewhere in the script unsafe too (declare -i): more may be refused. */
  taints?: boolean;
}

const CONTEXTS: Context[] = [
  { text: "printf '%s|' P", out: (v) => `${v}|` },
  { text: 'printf \'%s|\' "P"', out: (v) => `${v}|` },
  { text: 'printf \'%s|\' "a P b"', out: (v) => `a ${v} b|` },
  { text: "printf '%s|' pre/P.bam", out: (v) => `pre/${v}.bam|` },
  { text: "printf '%s|' P P", out: (v) => `${v}|${v}|` },
  { text: 'printf \'%s|\' "$(printf \'%s\' P)"', out: (v) => `${subst(v)}|` },
  { text: 'printf \'%s|\' "$(printf \'%s\' "P")"', out: (v) => `${subst(v)}|` },
  { text: 'printf \'%s|\' "`printf \'%s\' P`"', out: (v) => `${subst(v)}|` },
  { text: 'x=`printf \'%s\' "P"`; printf \'%s|\' "$x"', out: (v) => `${subst(v)}|` },
  { text: 'x=$(printf \'%s\' P); printf \'%s|\' "$x"', out: (v) => `${subst(v)}|` },
  { text: 'c <<EOF\nP\nEOF', out: (v) => `${v}\n` },
  { text: 'c <<EOF\n"P" and \'P\'\nEOF', out: (v) => `"${v}" and '${v}'\n` },
  { text: 'c <<-EOF\n\tline P\n\tEOF', out: (v) => `line ${v}\n` },
  { text: 'c <<EOF\n$(printf \'%s\' "P")\nEOF', out: (v) => `${subst(v)}\n` },
  { text: "# remove the sample's scratch copy of P\nprintf '%s|' P", out: (v) => `${v}|` },
  { text: "printf '%s|' P # it's \"P\"", out: (v) => `${v}|` },
  { text: "printf '%s' P | { IFS= read -r l || true; printf '%s|' \"$l\"; }", out: (v) => `${v.split('\n')[0]}|` },
  { text: "case P in *) printf '%s|' P;; esac", out: (v) => `${v}|` },
  { text: "f() { printf '%s|' \"$1\"; }; f P", out: (v) => `${v}|` },
  { text: "g() {\n  printf '%s|' P\n}\ng", out: (v) => `${v}|` },
  { text: "for a in P; do printf '%s|' \"$a\"; done", out: (v) => `${v}|` },
  { text: "y=P; printf '%s|' \"$y\"", out: (v) => `${v}|` },
  { text: "export y=P; printf '%s|' \"$y\"", out: (v) => `${v}|` },
  { text: "if [ -n \"P\" ] || true; then printf '%s|' P; fi", out: (v) => `${v}|` },
  { text: "[ \"P\" = \"P\" ] && printf 'eq|'", out: () => 'eq|' },
  { text: "printf '%s|' \\\n  P", out: (v) => `${v}|` },
  { text: "(printf '%s|' P)", out: (v) => `${v}|` },
  { text: "{ printf '%s|' P; } | c", out: (v) => `${v}|` },
  { text: "while :; do printf '%s|' P; break; done", out: (v) => `${v}|` },
  { text: "[[ P == P ]] && printf 'eq|'", out: () => 'eq|', bashOnly: true },
  { text: "printf '%s|' 'P'" },
  { text: "printf '%s|' 'it is P'" },
  { text: 'printf \'%s|\' "$(printf \'%s\' \'P\')"' },
  { text: "c <<'EOF'\nP\nEOF" },
  { text: 'c <<"EOF"\nP\nEOF' },
  { text: 'echo $(( P + 1 ))' },
  { text: 'echo "$(( P ))"' },
  { text: 'case x in P) ;; esac' },
  { text: 'eval P' },
  { text: 'eval "echo P"' },
  { text: 'sh -c P' },
  { text: 'bash -c "echo P"' },
  { text: 'printf \'%s\' "${U:-P}"' },
  { text: 'trap P EXIT' },
  { text: '[[ P -eq 1 ]]' },
  { text: "printf -v P '%s' x" },
  { text: "printf '%s|' \\P" },
  { text: "printf '%s|' $'P'" },
  { text: 'let P' },
  { text: 'read P' },
  { text: '[[ -v P ]]' },
  { text: 'test -v P' },
  { text: 'declare -i n=P', taints: true },
  { text: "declare -i m\ny=P; printf '%s|' \"$y\"", taints: true },
  { text: 'declare P' },
  { text: 'a[P]=1' },
  { text: 'PS4=P' },
  { text: 'export PS4=P' },
];

// Every kind of placeholder, all resolving to the command's value.
const PLACEHOLDERS = ['{config.v}', '{params.p}', '{sample}', '{input[0]}', '{output.o}', '{log}', '{config.list-x}'];

interface Generated {
  text: string;
  value: string;
  snippets: { context: Context; start: number; placeholders: number[] }[];
}

// Scripts come from a pool of random ones (drawn once, with a fixed seed): the parser then runs once
// per pool entry, while every command still gets its own random value.
const POOL = 1500;
const scriptParts = fc.array(fc.record({ context: fc.constantFrom(...CONTEXTS), placeholder: fc.constantFrom(...PLACEHOLDERS) }), { minLength: 1, maxLength: 3 });
const pool = fc.sample(scriptParts, { numRuns: POOL, seed: 17 });

const command = fc
  .record({ parts: fc.nat(POOL - 1).map((i) => pool[i]!), value })
  .map(({ parts, value }): Generated => {
    let text = '';
    const snippets: Generated['snippets'] = [];
    for (const { context, placeholder } of parts) {
      if (text !== '') text += '\n';
      const start = text.length;
      const placeholders: number[] = [];
      // P alone (not the P of PS4) stands for the placeholder.
      const pieces = context.text.split(/P(?![A-Z0-9])/);
      let at = start;
      pieces.forEach((piece, i) => {
        at += piece.length;
        if (i < pieces.length - 1) {
          placeholders.push(at);
          at += placeholder.length;
        }
      });
      text += pieces.join(placeholder);
      snippets.push({ context, start, placeholders });
    }
    return { text, value, snippets };
  });

function valuesFor(v: string): RenderValues {
  return {
    input: { paths: [v], names: {} },
    output: { paths: [v], names: { o: 0 } },
    log: v,
    params: { p: v },
    config: () => v,
    vars: () => v,
  };
}

interface Runnable {
  index: number;
  script: string;
  env: Record<string, string>;
  expected: string;
  bashOnly: boolean;
}

// `c` is cat as a shell function: the contexts use it (`c <<EOF`, `| c`) so that a batch starts no
// program per command (an exec costs milliseconds on a loaded machine, a builtin microseconds).
const PRELUDE = `c() { while IFS= read -r l; do printf '%s\\n' "$l"; done; [ -z "$l" ] || printf '%s' "$l"; }\n`;

/** One shell process runs the whole batch; each command's output follows a \x01<i>\x01 marker. */
function runBatch(shell: 'sh' | 'bash', jobs: readonly Runnable[]): Promise<Map<number, string>> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' };
  let script = PRELUDE;
  for (const j of jobs) {
    if (shell === 'sh' && j.bashOnly) continue;
    script += `printf '\\001%d\\001' ${j.index}\n`;
    for (const [name, v] of Object.entries(j.env)) {
      env[`V${j.index}_${name}`] = v;
      script += `export ${name}="$V${j.index}_${name}"\n`;
    }
    script += `{\n${j.script}\n} 2>/dev/null\n`;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', script], { env, cwd: canaryDir, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.on('error', reject);
    child.on('close', () => {
      const out = new Map<number, string>();
      const parts = Buffer.concat(chunks).toString('utf8').split('\u0001');
      for (let k = 1; k + 1 < parts.length; k += 2) out.set(Number(parts[k]), parts[k + 1]!);
      resolve(out);
    });
  });
}

let counter = 0;

describe('no value is ever parsed as shell code', () => {
  it(`${BATCHES * PER_BATCH} random commands: refused at the placeholder, or run by sh and bash with the exact value and no canary`, async () => {
    let ran = 0;
    let refused = 0;
    const result = await fc.check(
      fc.asyncProperty(fc.array(command, { minLength: PER_BATCH, maxLength: PER_BATCH }), async (batch) => {
        const jobs: Runnable[] = [];
        for (const g of batch) {
          const index = counter++;
          const canary = path.join(canaryDir, `c${index}`);
          const v = g.value.split('CANARY').join(canary);
          const template = compileTemplate(g.text);
          const analysis = analyseShell(g.text, template);
          expect(analysis.syntaxError, g.text).toBeUndefined();
          const refusedAt = g.snippets.filter((s) => s.context.out === undefined).flatMap((s) => s.placeholders);
          if (refusedAt.length > 0) {
            // Exactly the placeholders of the refused contexts, each at its own offset (with a
            // declare -i, assignments elsewhere too).
            if (g.snippets.some((s) => s.context.taints)) expect(refusedAt.filter((at) => !analysis.refused.some((r) => r.at === at)), g.text).toEqual([]);
            else expect(analysis.refused.map((r) => r.at), g.text).toEqual(refusedAt);
            refused++;
            continue;
          }
          expect(analysis.refused, g.text).toEqual([]);
          const { script, env } = renderScript(template, analysis, valuesFor(v));
          // No value is written into the script.
          expect(script.includes('touch'), script).toBe(g.text.includes('touch'));
          jobs.push({ index, script, env, expected: g.snippets.map((s) => s.context.out!(v)).join(''), bashOnly: g.snippets.some((s) => s.context.bashOnly) });
        }
        // The two shells run side by side.
        const [sh, bash] = await Promise.all([runBatch('sh', jobs), runBatch('bash', jobs)]);
        for (const [shell, outputs] of [['sh', sh], ['bash', bash]] as const) {
          for (const j of jobs) {
            if (shell === 'sh' && j.bashOnly) continue;
            expect(outputs.get(j.index), `${shell}: ${j.script}\nenv: ${JSON.stringify(j.env)}`).toBe(j.expected);
          }
        }
        ran += jobs.length;
        expect(readdirSync(canaryDir)).toEqual([]);
      }),
      { numRuns: BATCHES, endOnFailure: true },
    );
    // The seed and path replay the failure: fc.assert(…, { seed, path, endOnFailure: true }).
    if (result.failed) throw new Error(`failed with seed ${result.seed}, path ${result.counterexamplePath}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`);
    expect(ran + refused).toBe(BATCHES * PER_BATCH);
    // Both outcomes occur often: neither side of the property is vacuous.
    expect(ran).toBeGreaterThan(BATCHES * PER_BATCH * 0.2);
    expect(refused).toBeGreaterThan(BATCHES * PER_BATCH * 0.2);
  }, 600_000);
});

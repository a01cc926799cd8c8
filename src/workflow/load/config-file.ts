// `--configfile FILE`: a flat table of [config] values in TOML, JSON or YAML, chosen by the file's
// extension. Pure: text in, values (or one diagnostic naming the file) out; the CLI reads the file.
import { parse, TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';

/** One config file's values, in the order written, with the file as the user named it. */
export interface ConfigLayer {
  file: string;
  values: Record<string, unknown>;
  /** The 1-based line where a key is written, when it can be found. */
  lineOf(key: string): number | undefined;
}

type Format = 'toml' | 'json' | 'yaml';

function formatOf(file: string): Format | undefined {
  if (/\.toml$/i.test(file)) return 'toml';
  if (/\.json$/i.test(file)) return 'json';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  return undefined;
}

/** Whether a config file is read as YAML (the caller then loads the YAML parser, config-yaml.ts). */
export const isYamlConfig = (file: string): boolean => formatOf(file) === 'yaml';

/** Parse a config file's text; `file` names it in every message. `parseYaml` reads a YAML file. */
export function parseConfigFile(text: string, file: string, parseYaml?: (text: string, file: string) => unknown): { layer: ConfigLayer } | { diagnostic: Diagnostic } {
  const format = formatOf(file);
  const fail = (why: string, line?: number, column?: number) => ({
    diagnostic: diagnostic('CLI032', `config file ${file}: ${why}`, {
      file,
      ...(line !== undefined ? { line, column: column ?? 1 } : {}),
      hint: 'a config file is a flat table of [config] keys: key = value (TOML), "key": value (JSON) or key: value (YAML)',
    }),
  });
  if (format === undefined) return fail('the name must end in .toml, .json, .yaml or .yml (the extension says how to read it)');
  let data: unknown;
  try {
    if (format === 'toml') data = parse(text.replace(/\r\n/g, '\n'), { maxDepth: 32, unsafeKeyBehaviour: 'throw' });
    else if (format === 'json') data = JSON.parse(text);
    else if (parseYaml !== undefined) data = parseYaml(text, file);
    else return fail('YAML cannot be read here');
  } catch (err) {
    if (err instanceof TomlError) return fail(`not valid TOML: ${err.message.split('\n')[0]}`, err.line, err.column);
    const e = err as { mark?: { line: number; column: number }; reason?: string; message?: string };
    if (e.mark !== undefined) return fail(`not valid YAML: ${e.reason ?? 'syntax error'}`, e.mark.line + 1, e.mark.column + 1);
    return fail(`not valid ${format.toUpperCase()}: ${e.message ?? String(err)}`);
  }
  // An empty YAML file is no values, not an error.
  if (data === undefined || data === null) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) return fail(`the file holds ${Array.isArray(data) ? 'a list' : `a ${typeof data}`}, not a table of keys`);
  const lines = text.split('\n');
  return {
    layer: {
      file,
      values: data as Record<string, unknown>,
      lineOf: (key) => {
        const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const re = new RegExp(`^\\s*["']?${escaped}["']?\\s*[:=]`);
        const i = lines.findIndex((l) => re.test(l));
        return i >= 0 ? i + 1 : undefined;
      },
    },
  };
}

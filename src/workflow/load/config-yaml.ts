// YAML for `--configfile x.yaml`, in a module of its own: js-yaml is loaded (from the second bundle)
// only when a YAML config file is given, so validate and dry-run without one never pay for it.
import yaml from 'js-yaml';

/** YAML's core schema: strings, numbers, booleans, null, lists, maps; no timestamps, no JavaScript types. */
export function parseYaml(text: string, file: string): unknown {
  return yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file });
}

// SEP-2243 (2026-07-28): a tool's input schema may mark parameters with `x-mcp-header: Name`; the
// client then mirrors each such argument into an `Mcp-Param-Name` header of the tools/call, so
// gateways and load balancers can route without reading the body. A tool whose marks are invalid
// (empty, not a header token, repeated ignoring case, or on a non-primitive parameter) is refused:
// the server and this client would disagree about its headers.

/** RFC 9110 token characters: what a header name may consist of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);

/** Parameter name → header name (without the Mcp-Param- prefix), or why the tool is refused. */
export function headerParams(inputSchema: Record<string, unknown>): { params: Record<string, string> } | { invalid: string } {
  const props = inputSchema.properties;
  const params: Record<string, string> = {};
  if (typeof props !== 'object' || props === null) return { params };
  const seen = new Map<string, string>();
  for (const [param, schema] of Object.entries(props as Record<string, unknown>)) {
    if (typeof schema !== 'object' || schema === null || !Object.hasOwn(schema, 'x-mcp-header')) continue;
    const name = (schema as Record<string, unknown>)['x-mcp-header'];
    const shown = JSON.stringify(name)?.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
    if (typeof name !== 'string' || name === '') return { invalid: `parameter ${JSON.stringify(param)} has an empty or non-text x-mcp-header` };
    if (!TOKEN.test(name)) return { invalid: `parameter ${JSON.stringify(param)} has x-mcp-header ${shown}, which is not a valid header name` };
    const type = (schema as Record<string, unknown>).type;
    if (typeof type !== 'string' || !PRIMITIVE.has(type)) return { invalid: `parameter ${JSON.stringify(param)} has x-mcp-header ${shown} but is not a string, number, integer or boolean` };
    const other = seen.get(name.toLowerCase());
    if (other !== undefined) return { invalid: `parameters ${JSON.stringify(other)} and ${JSON.stringify(param)} both use x-mcp-header ${shown} (header names ignore case)` };
    seen.set(name.toLowerCase(), param);
    params[param] = name;
  }
  return { params };
}

/**
 * A header value as SEP-2243 encodes it: numbers and booleans as JSON writes them, text as it is
 * when it is printable ASCII without surrounding whitespace, else `=?base64?…?=` of its UTF-8.
 */
export function headerValue(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  if (value === '' || /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The Mcp-Param-* headers of one call; a parameter that is absent or null gets none. */
export function paramHeaders(params: Record<string, string>, args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [param, name] of Object.entries(params)) {
    const v = args[param];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[`Mcp-Param-${name}`] = headerValue(v);
  }
  return out;
}

// Shape a tools/call result into the text a model (or a person) sees: text blocks joined,
// structuredContent as JSON, binary content summarised, all capped at 16 KiB with head and tail
// kept and a marker saying how much was cut.
import type { CallToolResult } from './messages.js';

export const MAX_TOOL_RESULT_BYTES = 16 * 1024;

export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  const textJson = new Set<string>();
  for (const block of result.content as Array<Record<string, unknown>>) {
    const type = String(block.type);
    if (type === 'text' && typeof block.text === 'string') {
      parts.push(block.text);
      const normal = normalisedJson(block.text);
      if (normal !== undefined) textJson.add(normal);
    } else if (type === 'image' || type === 'audio') {
      parts.push(`[${type} ${String(block.mimeType ?? 'unknown type')}, ${base64Bytes(block.data)} bytes]`);
    } else if (type === 'resource_link') {
      parts.push(`[resource link: ${String(block.name ?? '')} ${String(block.uri ?? '')}]`.replace(/\s+]/, ']'));
    } else if (type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
      const r = block.resource as Record<string, unknown>;
      if (typeof r.text === 'string') parts.push(r.text);
      else parts.push(`[resource ${String(r.uri ?? '')} ${String(r.mimeType ?? '')}, ${base64Bytes(r.blob)} bytes]`);
    } else {
      parts.push(`[${type} content]`);
    }
  }
  // Servers often repeat structuredContent in the text blocks, as its JSON or as the text of its
  // fields (server-filesystem: { content: <file> } beside the file as text): show it once.
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    const joined = parts.join('\n');
    const leaves = stringLeaves(result.structuredContent);
    const repeated = textJson.has(json) || (leaves.length > 0 && leaves.every((leaf) => leaf.length < 16 || joined.includes(leaf)) && leaves.some((leaf) => leaf.length >= 16));
    if (!repeated) parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return parts.join('\n');
}

/** The string values inside a JSON value (bounded: a result is not walked past 10,000 nodes). */
function stringLeaves(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  for (let seen = 0; stack.length > 0 && seen < 10_000; seen++) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
  return out;
}

/** Keep the head and the tail within maxBytes of UTF-8, never splitting a character. */
export function capText(text: string, maxBytes = MAX_TOOL_RESULT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const marker = (omitted: number) => `\n[… ${omitted} of ${bytes.length} bytes omitted here: the result is longer than the ${Math.round(maxBytes / 1024)} KiB a tool result may take …]\n`;
  const room = maxBytes - Buffer.byteLength(marker(bytes.length));
  let headEnd = Math.floor(room / 2);
  while (headEnd > 0 && isContinuation(bytes[headEnd]!)) headEnd--;
  let tailStart = bytes.length - (room - Math.floor(room / 2));
  while (tailStart < bytes.length && isContinuation(bytes[tailStart]!)) tailStart++;
  const head = bytes.subarray(0, headEnd).toString('utf8');
  const tail = bytes.subarray(tailStart).toString('utf8');
  return `${head}${marker(tailStart - headEnd)}${tail}`;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function normalisedJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

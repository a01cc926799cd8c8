// Zod schemas for the MCP messages this client reads, validated where they enter (the protocol
// layer). Types are inferred from the schemas. Only what a tools-only client needs is modelled;
// unknown fields pass through untouched.
//
// zod/mini, not zod's classic API: the same validator (zod's core), with functions in place of
// methods, so the bundle takes only the parts these schemas use (about 25 KB with the English
// messages) instead of requiring the whole package and its ~60 locale files from node_modules, which
// cost an `ai tools` or `ai call` about 40 ms of CPU before its first request (docs/benchmarks.md).
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * Revisions this client speaks, newest first; the first is what `initialize` asks for. 2024-11-05
 * servers answer a Streamable HTTP initialize too (the official SDK negotiates down to it): what this
 * client uses of MCP (initialize, tools/list, tools/call, progress, cancellation) is the same there,
 * and tools without annotations are simply asked about at the gate.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/**
 * The schemas, built on first use: commands that load this module without talking to a server (ai
 * status, the --ai review) never build them.
 */
function buildSchemas() {
  // The English messages zod's classic API sets up (MCP007 quotes the first issue).
  z.config(en());
  const RequestId = z.union([z.string(), z.number()]);

  const JsonRpcErrorSchema = z.looseObject({
    code: z.number(),
    message: z.string(),
    data: z.optional(z.unknown()),
  });

  const JsonRpcResponseSchema = z.union([
    z.looseObject({ jsonrpc: z.literal('2.0'), id: RequestId, result: z.record(z.string(), z.unknown()) }),
    z.looseObject({ jsonrpc: z.literal('2.0'), id: z.nullable(RequestId), error: JsonRpcErrorSchema }),
  ]);
  const JsonRpcRequestSchema = z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: RequestId,
    method: z.string(),
    params: z.optional(z.record(z.string(), z.unknown())),
  });
  const JsonRpcNotificationSchema = z.looseObject({
    jsonrpc: z.literal('2.0'),
    method: z.string(),
    params: z.optional(z.record(z.string(), z.unknown())),
  });


  const InitializeResultSchema = z.looseObject({
    protocolVersion: z.string(),
    capabilities: z.looseObject({ tools: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })) }),
    serverInfo: z.looseObject({ name: z.string(), version: z.optional(z.string()), title: z.optional(z.string()) }),
    instructions: z.optional(z.string()),
  });

  /** Defaults per the schema comments: absent means worst case (not read-only, destructive, open world). */
  const ToolAnnotationsSchema = z.looseObject({
    title: z.optional(z.string()),
    readOnlyHint: z.optional(z.boolean()),
    destructiveHint: z.optional(z.boolean()),
    idempotentHint: z.optional(z.boolean()),
    openWorldHint: z.optional(z.boolean()),
  });

  const ToolSchema = z.looseObject({
    name: z.string().check(z.minLength(1)),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    inputSchema: z.looseObject({ type: z.literal('object') }),
    outputSchema: z.optional(z.looseObject({})),
    annotations: z.optional(ToolAnnotationsSchema),
    execution: z.optional(z.looseObject({ taskSupport: z.optional(z.string()) })),
  });

  const ListToolsResultSchema = z.looseObject({
    tools: z.array(ToolSchema),
    nextCursor: z.optional(z.string()),
  });

  const ContentBlockSchema = z.looseObject({ type: z.string() });

  const CallToolResultSchema = z.looseObject({
    content: z._default(z.array(ContentBlockSchema), []),
    structuredContent: z.optional(z.unknown()),
    isError: z.optional(z.boolean()),
  });

  const EmptyResultSchema = z.looseObject({});

  const ProgressParamsSchema = z.looseObject({
    progressToken: z.union([z.string(), z.number()]),
    progress: z.number(),
    total: z.optional(z.number()),
    message: z.optional(z.string()),
  });
  return { RequestId, JsonRpcErrorSchema, JsonRpcResponseSchema, JsonRpcRequestSchema, JsonRpcNotificationSchema, InitializeResultSchema, ToolAnnotationsSchema, ToolSchema, ListToolsResultSchema, ContentBlockSchema, CallToolResultSchema, EmptyResultSchema, ProgressParamsSchema };
}

let built: ReturnType<typeof buildSchemas> | undefined;
export function mcpSchemas(): ReturnType<typeof buildSchemas> {
  return (built ??= buildSchemas());
}
type Schemas = ReturnType<typeof buildSchemas>;

export type RequestId = z.infer<Schemas['RequestId']>;
export type JsonRpcError = z.infer<Schemas['JsonRpcErrorSchema']>;
export type JsonRpcRequest = z.infer<Schemas['JsonRpcRequestSchema']>;
export type JsonRpcNotification = z.infer<Schemas['JsonRpcNotificationSchema']>;
export type JsonRpcResponse = z.infer<Schemas['JsonRpcResponseSchema']>;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
export type InitializeResult = z.infer<Schemas['InitializeResultSchema']>;
export type ToolAnnotations = z.infer<Schemas['ToolAnnotationsSchema']>;
export type Tool = z.infer<Schemas['ToolSchema']>;
export type ListToolsResult = z.infer<Schemas['ListToolsResultSchema']>;
export type ContentBlock = z.infer<Schemas['ContentBlockSchema']> & Record<string, unknown>;
export type CallToolResult = z.infer<Schemas['CallToolResultSchema']>;

/**
 * Classify one decoded JSON value. A request has `method` and `id`; a notification has `method`
 * and no `id`; a response has `id` and `result` or `error`. Returns undefined for anything else.
 */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const hasMethod = 'method' in value;
  const hasId = 'id' in value;
  const S = mcpSchemas();
  const schema = hasMethod ? (hasId ? S.JsonRpcRequestSchema : S.JsonRpcNotificationSchema) : S.JsonRpcResponseSchema;
  const parsed = schema.safeParse(value);
  return parsed.success ? (parsed.data as JsonRpcMessage) : undefined;
}

export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !('method' in m);
}
export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m;
}

/** The error object of an error response, or undefined for a result response. */
export function responseError(m: JsonRpcResponse): JsonRpcError | undefined {
  return 'error' in m ? (m.error as JsonRpcError) : undefined;
}

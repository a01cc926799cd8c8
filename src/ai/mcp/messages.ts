// Zod schemas for the MCP messages this client reads, validated where they enter (the protocol
// layer). Types are inferred from the schemas. Only what a tools-only client needs is modelled;
// unknown fields pass through untouched.
import { createRequire } from 'node:module';
import type { z } from 'zod';

// zod is required when the first schema is built, never at load time.
const requireZod = (): typeof import('zod') => createRequire(import.meta.url)('zod');

/**
 * Revisions this client speaks, newest first; the first is what `initialize` asks for. 2024-11-05
 * servers answer a Streamable HTTP initialize too (the official SDK negotiates down to it): what this
 * client uses of MCP (initialize, tools/list, tools/call, progress, cancellation) is the same there,
 * and tools without annotations are simply asked about at the gate.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/**
 * The stateless revision (SEP-2575): no initialize and no session; every request says the version
 * (MCP-Protocol-Version header and `_meta`), who the client is and what it can do.
 */
export const STATELESS_PROTOCOL_VERSION = '2026-07-28';

/**
 * The schemas, built on first use: zod is loaded only when an MCP message is read, so commands that
 * load this module without talking to a server (ai status, the --ai review) never pay for it.
 */
function buildSchemas() {
  const { z } = requireZod();
  const RequestId = z.union([z.string(), z.number()]);

  const JsonRpcErrorSchema = z.looseObject({
    code: z.number(),
    message: z.string(),
    data: z.unknown().optional(),
  });

  const JsonRpcResponseSchema = z.union([
    z.looseObject({ jsonrpc: z.literal('2.0'), id: RequestId, result: z.record(z.string(), z.unknown()) }),
    z.looseObject({ jsonrpc: z.literal('2.0'), id: RequestId.nullable(), error: JsonRpcErrorSchema }),
  ]);
  const JsonRpcRequestSchema = z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: RequestId,
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  });
  const JsonRpcNotificationSchema = z.looseObject({
    jsonrpc: z.literal('2.0'),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  });


  const InitializeResultSchema = z.looseObject({
    protocolVersion: z.string(),
    capabilities: z.looseObject({ tools: z.looseObject({ listChanged: z.boolean().optional() }).optional() }),
    serverInfo: z.looseObject({ name: z.string(), version: z.string().optional(), title: z.string().optional() }),
    instructions: z.string().optional(),
  });

  /** Defaults per the schema comments: absent means worst case (not read-only, destructive, open world). */
  const ToolAnnotationsSchema = z.looseObject({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  });

  const ToolSchema = z.looseObject({
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.looseObject({ type: z.literal('object') }),
    outputSchema: z.looseObject({}).optional(),
    annotations: ToolAnnotationsSchema.optional(),
    execution: z.looseObject({ taskSupport: z.string().optional() }).optional(),
  });

  const ListToolsResultSchema = z.looseObject({
    tools: z.array(ToolSchema),
    nextCursor: z.string().optional(),
  });

  const ContentBlockSchema = z.looseObject({ type: z.string() });

  const CallToolResultSchema = z.looseObject({
    content: z.array(ContentBlockSchema).default([]),
    structuredContent: z.unknown().optional(),
    isError: z.boolean().optional(),
  });

  const EmptyResultSchema = z.looseObject({});

  /** 2026-07-28 server/discover: what initialize told before, without a session. */
  const DiscoverResultSchema = z.looseObject({
    supportedVersions: z.array(z.string()).optional(),
    capabilities: z.looseObject({ tools: z.looseObject({ listChanged: z.boolean().optional() }).optional() }).default({}),
    // In the result, or (later drafts) in its _meta as io.modelcontextprotocol/serverInfo.
    serverInfo: z.looseObject({ name: z.string(), version: z.string().optional(), title: z.string().optional() }).optional(),
    instructions: z.string().optional(),
    _meta: z.looseObject({ 'io.modelcontextprotocol/serverInfo': z.looseObject({ name: z.string(), version: z.string().optional(), title: z.string().optional() }).optional() }).optional(),
  });

  /**
   * SEP-2322 (multi round-trip requests): the tool needs answers first (a form for the person); the
   * call is sent again with them and the server's requestState, exactly as it was given.
   */
  const InputRequiredResultSchema = z.looseObject({
    resultType: z.literal('input_required'),
    inputRequests: z.record(z.string(), z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() })).default({}),
    requestState: z.string().optional(),
  });
  const CallToolAnswerSchema = z.union([InputRequiredResultSchema, CallToolResultSchema]);

  const ProgressParamsSchema = z.looseObject({
    progressToken: z.union([z.string(), z.number()]),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  });
  return { RequestId, JsonRpcErrorSchema, JsonRpcResponseSchema, JsonRpcRequestSchema, JsonRpcNotificationSchema, InitializeResultSchema, ToolAnnotationsSchema, ToolSchema, ListToolsResultSchema, ContentBlockSchema, CallToolResultSchema, EmptyResultSchema, ProgressParamsSchema, DiscoverResultSchema, InputRequiredResultSchema, CallToolAnswerSchema };
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
export type InputRequiredResult = z.infer<Schemas['InputRequiredResultSchema']>;

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

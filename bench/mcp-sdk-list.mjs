// The yardstick for bench/mcp-connect.md: the official SDK client (@modelcontextprotocol/sdk) does
// what `oxo-flow ai tools --mcp` does against one server: connect (initialize), list every tool
// (following nextCursor), end the session (DELETE), exit. Usage: node bench/mcp-sdk-list.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]));
const client = new Client({ name: 'sdk-yardstick', version: '1.0.0' });
await client.connect(transport);
let cursor;
let count = 0;
do {
  const page = await client.listTools(cursor === undefined ? undefined : { cursor });
  count += page.tools.length;
  cursor = page.nextCursor;
} while (cursor !== undefined);
await transport.terminateSession();
await client.close();
process.stdout.write(`${count} tools\n`);

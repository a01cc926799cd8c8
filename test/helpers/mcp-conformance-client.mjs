// Client command for the MCP conformance suite (@modelcontextprotocol/conformance@0.1.13). The
// suite appends the mock server's URL as the last argument and runs us with piped stdio, so this
// wrapper runs the built CLI inside a real pseudo-terminal (util-linux `script`) and answers `y`
// when, and only when, the approval prompt appears. Plain JS: the suite runs it with node.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/oxo-flow.js');
// The mock servers' address, as they announce it (a DPoP proof names the very address requested).
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const byScenario = {
  tools_call: ['ai', 'call', 'mcp_conformance_add_numbers', '--args', '{"a":5,"b":7}'],
  'sse-retry': ['ai', 'call', 'mcp_conformance_test_reconnection'],
  'elicitation-sep1034-client-defaults': ['ai', 'call', 'mcp_conformance_test_client_elicitation_defaults'],
};
const args = [...(byScenario[scenario] ?? ['ai', 'tools']), '--mcp', `conformance=${url}`];
const env = { ...process.env, NO_COLOR: '1' };
delete env.CI;
// The auth scenarios' server needs OAuth: log in first, as a person would, with a stand-in browser
// that follows the authorization URL to the loopback redirect (the suite's authorization server
// consents at once). Tokens go to a throwaway OXO_FLOW_HOME. When the suite hands over a client
// (MCP_CONFORMANCE_CONTEXT: a pre-registered id and secret), it goes into a tool skill's
// [mcp] oauth table, the secret through an environment variable; client-credentials scenarios use
// that grant and need no login.
let commandArgs = args;
let login;
let cwd = process.cwd();
if (scenario.startsWith('auth/')) {
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  env.OXO_FLOW_HOME = mkdtempSync(path.join(os.tmpdir(), 'oxo-conformance-home-'));
  env.BROWSER = `${process.execPath} ${path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fake-browser.mjs')}`;
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  // Grants that need no person: client credentials, a workload's JWT (RFC 7523), an enterprise ID token (SEP-990).
  const grant = scenario.includes('client-credentials') ? 'client_credentials' : context.valid_jwt !== undefined ? 'jwt_bearer' : context.idp_token_endpoint !== undefined ? 'enterprise' : undefined;
  const machine = grant !== undefined;
  let server = `conformance=${url}`;
  if (context.client_id !== undefined) {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'oxo-conformance-project-'));
    mkdirSync(path.join(cwd, '.oxo-flow', 'skills'), { recursive: true });
    const oauth = [`client_id = ${JSON.stringify(context.client_id)}`];
    if (context.client_secret !== undefined) {
      env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
      oauth.push('client_secret_env = "CONFORMANCE_CLIENT_SECRET"');
    }
    if (context.private_key_pem !== undefined) {
      env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
      oauth.push('private_key_env = "CONFORMANCE_PRIVATE_KEY"');
    }
    if (context.valid_jwt !== undefined) {
      env.CONFORMANCE_WORKLOAD_JWT = context.valid_jwt;
      oauth.push('assertion_env = "CONFORMANCE_WORKLOAD_JWT"');
    }
    if (context.idp_token_endpoint !== undefined) {
      env.CONFORMANCE_ID_TOKEN = context.idp_id_token;
      oauth.push(`idp_token_endpoint = ${JSON.stringify(context.idp_token_endpoint)}`, `idp_client_id = ${JSON.stringify(context.idp_client_id)}`, 'id_token_env = "CONFORMANCE_ID_TOKEN"');
    }
    if (machine) oauth.push(`grant = "${grant}"`);
    writeFileSync(
      path.join(cwd, '.oxo-flow', 'skills', 'conformance.skill.toml'),
      `name = "conformance"\nversion = "1.0.0"\ndescription = "Use for the conformance suite's server"\nskill_type = "tool"\nrequires = [${JSON.stringify(url)}]\n\n[mcp]\noauth = { ${oauth.join(', ')} }\n`,
    );
    server = 'conformance';
  }
  // Like a person: list, then call the server's tool (the call is what may need a larger scope).
  commandArgs = ['ai', 'call', 'mcp_conformance_test-tool', ...(server === 'conformance' ? ['--skill', 'conformance'] : ['--mcp', server])];
  login = async () => {
    const child = spawn(process.execPath, [cli, 'ai', 'login', server], { stdio: ['ignore', 'inherit', 'inherit'], env, cwd });
    await new Promise((resolve) => child.on('close', resolve));
  };
  if (!machine) await login();
}
/**
 * Run the CLI in a pseudo-terminal, answering `y` to the approval prompt, and to a server's form
 * (elicitation) Enter for each field (the server's default) and `y` to send.
 */
function inTerminal(cliArgs) {
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', [process.execPath, cli, ...cliArgs].map(quote).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'], env, cwd });
    let screen = '';
    let answered = false;
    let fieldsAnswered = 0;
    let pagesRead = 0;
    let sent = false;
    child.stdout.on('data', (d) => {
      screen += d.toString();
      process.stderr.write(d);
      if (!answered && screen.includes('Allow execution? [y]es / [N]o / [a]lways for this tool in this command: ')) {
        answered = true;
        child.stdin.write('y\r');
      }
      // Long arguments are shown a page at a time: read on, as a person would.
      const pages = screen.split('Enter: next page').length - 1;
      if (pages > pagesRead) {
        pagesRead = pages;
        child.stdin.write('\r');
      }
      const fields = screen.split('  › ').length - 1;
      if (fields > fieldsAnswered && /: (\u001b\[\d+G)?$/.test(screen)) {
        fieldsAnswered = fields;
        child.stdin.write('\r');
      }
      if (!sent && screen.includes('Send these answers? [y]es / [N]o, decline / [c]ancel the request: ')) {
        sent = true;
        child.stdin.write('y\r');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, screen });
    });
  });
}

// JSON Schema 2020-12 preservation: what oxo-flow would hand the model as the focal tool's input
// schema (`ai tools --json`) is sent back verbatim through the echo tool; the suite compares it
// with the schema it published.
if (scenario === 'json-schema-2020-12-preservation') {
  const { execFileSync } = await import('node:child_process');
  const listed = JSON.parse(execFileSync(process.execPath, [cli, '--json', 'ai', 'tools', '--mcp', `conformance=${url}`], { encoding: 'utf8', env, cwd }));
  const focal = listed.tools.find((t) => t.name === 'mcp_conformance_json_schema_2020_12_tool');
  if (focal === undefined) throw new Error('ai tools did not list mcp_conformance_json_schema_2020_12_tool');
  commandArgs = ['ai', 'call', 'mcp_conformance_json_schema_echo', '--args', JSON.stringify({ schema: focal.input_schema }), '--mcp', `conformance=${url}`];
}

// Scenarios of several calls, each made as a person would (approved, forms answered in the
// terminal): SEP-2322's four tools; SEP-2243's calls with the arguments the suite hands over, and
// the one valid tool among invalid ones.
const calls = {
  'sep-2322-client-request-state': ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type'].map((name) => ({ name, arguments: {} })),
  'http-custom-headers': process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).toolCalls : undefined,
  'http-invalid-tool-headers': [{ name: 'valid_tool', arguments: { region: 'us-west1' } }],
}[scenario];
if (calls !== undefined) {
  let code = 0;
  for (const call of calls) {
    code = Math.max(code, (await inTerminal(['ai', 'call', `mcp_conformance_${call.name}`, '--args', JSON.stringify(call.arguments), '--mcp', `conformance=${url}`])).code);
  }
  process.exit(code);
}

let outcome = await inTerminal(commandArgs);
// The error says to log in (again): a larger scope, or an authorization server that changed. Do
// as it says, once, and try once more.
if (outcome.code !== 0 && login !== undefined && /run `oxo-flow ai login \S+`/.test(outcome.screen.replace(/\s+/g, ' '))) {
  await login();
  outcome = await inTerminal(commandArgs);
}
process.exitCode = outcome.code;

// Client command for the MCP conformance suite (@modelcontextprotocol/conformance@0.1.13). The
// suite appends the mock server's URL as the last argument and runs us with piped stdio, so this
// wrapper runs the built CLI inside a real pseudo-terminal (util-linux `script`) and answers `y`
// when, and only when, the approval prompt appears. Plain JS: the suite runs it with node.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/oxo-flow.js');
// The mock servers listen on every interface and announce "localhost"; keep to 127.0.0.1.
const url = process.argv[process.argv.length - 1].replace('//localhost:', '//127.0.0.1:');
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const byScenario = {
  tools_call: ['ai', 'call', 'mcp_conformance_add_numbers', '--args', '{"a":5,"b":7}'],
  'sse-retry': ['ai', 'call', 'mcp_conformance_test_reconnection'],
};
const args = [...(byScenario[scenario] ?? ['ai', 'tools']), '--mcp', `conformance=${url}`];
const env = { ...process.env, NO_COLOR: '1' };
delete env.CI;
const child = spawn('script', ['-q', '-e', '-c', [process.execPath, cli, ...args].map(quote).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'], env });
let screen = '';
let answered = false;
child.stdout.on('data', (d) => {
  screen += d.toString();
  process.stderr.write(d);
  if (!answered && screen.includes('Allow execution? [y]es / [N]o / [a]lways for this tool in this command: ')) {
    answered = true;
    child.stdin.write('y\r');
  }
});
const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
child.on('close', (code) => {
  clearTimeout(timer);
  process.exitCode = code ?? 1;
});

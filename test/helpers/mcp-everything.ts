// @modelcontextprotocol/server-everything in streamableHttp mode, started as a child process of
// the test on a free port (the CLI itself never spawns servers). Killed by close(), and by a
// timer in case a test forgets.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface EverythingServer {
  url: string;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startEverything(options: { lifetimeMs?: number } = {}): Promise<EverythingServer> {
  const require = createRequire(import.meta.url);
  const entry = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const killTimer = setTimeout(() => child.kill('SIGKILL'), options.lifetimeMs ?? 300_000);
  killTimer.unref();
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const fail = setTimeout(() => reject(new Error(`server-everything did not start: ${log}`)), 20_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (/listening on port/i.test(log)) {
        clearTimeout(fail);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(fail);
      reject(new Error(`server-everything exited with ${code}: ${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      clearTimeout(killTimer);
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(t);
    },
  };
}

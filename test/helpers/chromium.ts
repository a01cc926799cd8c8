// Headless Debian chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
// commands on fd 3, replies on fd 4, each message NUL-terminated), so a test can open a page, see
// every request the page makes, ask the DOM questions and take a full-page screenshot. No library:
// the few protocol calls used here are documented facts of the DevTools protocol.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { onPath } from './tools.js';

export const CHROMIUM = ['chromium', 'chromium-browser'].find(onPath);

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export interface PageVisit {
  /** Every URL the page asked for (the document itself included). */
  requests: string[];
  /** Value of the expression evaluated in the page once it has loaded. */
  value: unknown;
}

export async function visit(url: string, options: { expression: string; screenshot?: string; width?: number; height?: number; timeoutMs?: number }): Promise<PageVisit> {
  if (CHROMIUM === undefined) throw new Error('chromium is not on PATH (apt-get install chromium)');
  const profile = mkdtempSync(path.join(tmpdir(), 'oxo-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  child.stderr!.resume();
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let buffer = '';
  fromBrowser.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at = buffer.indexOf('\0');
    while (at >= 0) {
      const msg = JSON.parse(buffer.slice(0, at)) as Message;
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf('\0');
      if (msg.id !== undefined && pending.has(msg.id)) {
        const p = pending.get(msg.id)!;
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg);
      } else for (const l of listeners) l(msg);
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: (m) => resolve(m.result ?? {}), reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  try {
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const requests: string[] = [];
    let loaded: () => void = () => {};
    const load = new Promise<void>((r) => (loaded = r));
    listeners.push((m) => {
      if (m.sessionId !== sessionId) return;
      if (m.method === 'Network.requestWillBeSent') requests.push(String((m.params!.request as { url: string }).url));
      if (m.method === 'Page.loadEventFired') loaded();
    });
    await send('Network.enable', {}, sessionId);
    await send('Page.enable', {}, sessionId);
    await send('Emulation.setDeviceMetricsOverride', { width: options.width ?? 1280, height: options.height ?? 900, deviceScaleFactor: 1, mobile: false }, sessionId);
    await send('Page.navigate', { url }, sessionId);
    await load;
    const evaluated = (await send('Runtime.evaluate', { expression: options.expression, returnByValue: true, awaitPromise: true }, sessionId)) as { result: { value: unknown }; exceptionDetails?: unknown };
    if (evaluated.exceptionDetails) throw new Error(`page script failed: ${JSON.stringify(evaluated.exceptionDetails)}`);
    if (options.screenshot !== undefined) {
      const metrics = (await send('Page.getLayoutMetrics', {}, sessionId)) as { cssContentSize: { width: number; height: number } };
      const height = Math.min(Math.ceil(metrics.cssContentSize.height), 6000);
      const shot = (await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width: options.width ?? 1280, height, scale: 1 } }, sessionId)) as { data: string };
      writeFileSync(options.screenshot, Buffer.from(shot.data, 'base64'));
    }
    await send('Browser.close').catch(() => ({}));
    return { requests, value: evaluated.result.value };
  } finally {
    clearTimeout(timeout);
    if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    // Chromium's helper processes may still be writing their profile for a moment after it exits.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch {
      // A left-over temporary profile is not the page's fault.
    }
  }
}

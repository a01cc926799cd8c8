// A minimal OpenAI-compatible model server for the benchmarks: answers every chat completion at
// once, streamed (SSE) or as JSON. Run it as a process (`node bench/fake-provider.mjs` prints its
// base URL) or import startFakeProvider. `onMarker` lets a caller stream a marked token on demand.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

export const REVIEW = '[WARNING] hello: no threads setting → add threads = 1\nLooks fine otherwise.';

/** options.delayedToken: {text, afterMs, onWrite(time)} streams one more token after a pause, for latency runs. */
export function startFakeProvider(options = {}) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const stream = JSON.parse(body || '{}').stream === true;
      const model = 'bench-model';
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'b', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: REVIEW }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } }));
        return;
      }
      const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: REVIEW }));
      const end = () => {
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      };
      const t = options.delayedToken;
      if (!t) return end();
      setTimeout(() => {
        res.write(chunk({ content: t.text }), () => undefined);
        t.onWrite(process.hrtime.bigint());
        setTimeout(end, 50);
      }, t.afterMs);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ baseUrl: `http://127.0.0.1:${server.address().port}/v1`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { baseUrl } = await startFakeProvider();
  process.stdout.write(`${baseUrl}\n`);
}

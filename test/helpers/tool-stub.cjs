#!/usr/bin/env node
// A stand-in for a bioinformatics tool that is absent (or that the placeholder data of `init` would
// make fail): it finds the job whose command invoked it (OXO_STUB_MANIFEST: the jobs of
// `dry-run --json`, each command with its declared outputs) and writes that job's declared outputs
// that do not exist yet, as the real tool would. It records each call in OXO_STUB_LOG.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const program = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const jobs = JSON.parse(fs.readFileSync(process.env.OXO_STUB_MANIFEST, 'utf8'));
fs.appendFileSync(process.env.OXO_STUB_LOG, `${program} ${args.join(' ')}\n`);
// Drain stdin, so that a writer piping into a stub is not stopped by SIGPIPE.
try {
  fs.readFileSync(0);
} catch {}
const mine = jobs.filter((j) => j.command.includes(program) && args.every((a) => j.command.includes(a)));
for (const job of mine) {
  for (const out of job.outputs) {
    const full = path.resolve(process.cwd(), out);
    if (fs.existsSync(full)) continue;
    if (out.endsWith('/')) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, `stub output of ${program} for ${job.id}\n`);
    }
  }
}

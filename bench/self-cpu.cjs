// Preloaded into the runner by bench/run-spawn.mjs (node -r): at exit, append the process's own CPU
// time (clock ticks, user and system), its minor and major page faults, and what it has reaped so far
// (children's ticks) to the file $OXO_BENCH_SELF. Own figures only: jobs and helpers are not in them.
const { appendFileSync, readFileSync } = require('node:fs');

process.on('exit', () => {
  const text = readFileSync('/proc/self/stat', 'latin1');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // f[n - 3] is field n of proc(5): minflt 10, majflt 12, utime 14, stime 15, cutime 16, cstime 17.
  appendFileSync(process.env.OXO_BENCH_SELF, `${f[11]} ${f[12]} ${f[7]} ${f[9]} ${f[13]} ${f[14]}\n`);
});

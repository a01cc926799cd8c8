// Which job scripts the light spawner may exec without /bin/sh (issue 25), and proof that doing so
// changes nothing: each accepted script is started both ways through the real helper — through
// `/bin/sh -c`, and directly with sh as the fallback — and the program sees the same argv and the
// same environment, and exits the same.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPerl, Spawner } from '../../../src/run/spawner/index.js';
import { directEnvironmentOk, simpleCommand } from '../../../src/workflow/render/simple-command.js';
import { tempDir } from '../../helpers/plan-workflow.js';

const ENV = { OXO_OUTPUT_0: 'out/a b.txt', OXO_EMPTY: '', OXO_NASTY: `$(touch pwned) * ? ~ ' " \\ ; | &\n\tx`, PATH: '/usr/bin:/bin' };

describe('simpleCommand', () => {
  it('gives the words of a plain command, a whole "${NAME}" reference as its value', () => {
    expect(simpleCommand('touch "${OXO_OUTPUT_0}"', ENV)).toEqual(['touch', 'out/a b.txt']);
    expect(simpleCommand('  cp\t-f a.txt "${OXO_NASTY}"  \n', ENV)).toEqual(['cp', '-f', 'a.txt', ENV.OXO_NASTY]);
    expect(simpleCommand('/usr/bin/env "${OXO_EMPTY}" k=v --x=1,2 @a %b +c', ENV)).toEqual(['/usr/bin/env', '', 'k=v', '--x=1,2', '@a', '%b', '+c']);
    expect(simpleCommand('./run.sh if then', ENV)).toEqual(['./run.sh', 'if', 'then']);
  });

  it('leaves to sh everything else', () => {
    const rejected = [
      '', ' \n', 'touch a\ntouch b', 'touch a\r', 'touch a; touch b', 'touch a && b', 'touch a || b', 'touch a | cat', 'touch a &',
      'touch a > b', 'cat < a', '(touch a)', '{ touch a; }', 'touch a # c', '# c', 'touch $HOME', 'touch ${OXO_OUTPUT_0}',
      'touch "${OXO_OUTPUT_0}"x', 'touch x"${OXO_OUTPUT_0}"', 'touch "${OXO_UNSET}"', 'touch "${OXO_OUTPUT_0:-x}"', 'touch "$OXO_OUTPUT_0"',
      "touch 'a'", 'touch "a"', 'touch a\\ b', 'touch *.txt', 'touch a?', 'touch [ab]', 'touch ~', 'touch ~/a', 'touch `x`', 'touch $(x)',
      'touch {a,b}', 'touch a!', 'touch a^b', '"${OXO_OUTPUT_0}" a', 'A=1 touch a', 'A=1', '=x', 'touch\u00a0a', 'touché',
      // Reserved words and builtins (dash's and bash's): they are not the programs of the same name.
      'if', '!', 'for', 'case', 'time touch a', 'cd out', 'exit 3', 'exec touch a', 'export A', 'set -e', 'eval x', '. x', ':', 'source x',
      'true', 'false', 'echo a', 'printf a', 'test -f a', '[ -f a ]', 'kill 1', 'pwd', 'read x', 'umask 0', 'ulimit -n', 'wait', 'trap x',
      'command touch a', 'type touch', 'hash', 'alias a', 'unset A', 'shift', 'times', 'getopts a b', 'local a', 'readonly a', 'return',
      'break', 'continue', 'builtin echo', 'declare a', 'let a', 'shopt x', 'enable x',
    ];
    for (const script of rejected) expect(simpleCommand(script, ENV), JSON.stringify(script)).toBeNull();
  });

  it('accepts an environment sh passes on unchanged, with a plain PATH', () => {
    expect(directEnvironmentOk({ PATH: '/usr/bin:/bin', A_1: 'x', PWD: '/nowhere' })).toBe(true);
    for (const env of [{ PATH: '/bin', 'A-B': '1' }, { PATH: '/bin', '1A': '1' }, { PATH: '/bin', IFS: ':' }, { PATH: '/bin', OPTIND: '2' }, { PATH: '/bin', PPID: '1' }, {}, { PATH: '' }, { PATH: '/bin::/usr/bin' }, { PATH: 'bin:/usr/bin' }, { PATH: '/bin%builtin' }]) {
      expect(directEnvironmentOk(env), JSON.stringify(env)).toBe(false);
    }
  });
});

describe('a plain command exec\'d directly, against /bin/sh', () => {
  const perl = findPerl(process.env);
  const spawner = perl !== undefined ? new Spawner(perl, () => {}) : undefined;
  afterAll(() => spawner?.close());
  const root = tempDir('oxo-simple-diff-');
  const work = path.join(root, 'work');
  mkdirSync(work);
  symlinkSync(work, path.join(root, 'link'));
  // A program that writes down its argv and environment, changing nothing (perl does not touch either).
  const dump = path.join(root, 'dump');
  writeFileSync(dump, `#!/usr/bin/perl\nprint join("\\0", @ARGV), "\\1", map({ "$_=$ENV{$_}\\0" } sort keys %ENV);\nexit(@ARGV > 0 && $ARGV[0] =~ /^exit(\\d+)$/ ? $1 : 0);\n`, { mode: 0o755 });
  let n = 0;
  const run = async (argv: string[], env: NodeJS.ProcessEnv, fallback?: string[]) => {
    const logPath = path.join(root, `log${++n}`);
    const launched = spawner!.launch({ argv, env, cwd: work, logPath, header: '', fresh: true, ...(fallback ? { fallback } : {}) });
    const o = await launched.outcome;
    let log = '';
    try {
      log = readFileSync(logPath, 'utf8');
    } catch {
      // A silent exit 0 leaves no log.
    }
    return { code: o.kind === 'exited' ? o.code : o.why, log };
  };
  const scripts = [
    `${dump}`,
    `${dump} "\${OXO_OUTPUT_0}"`,
    `${dump} a  b\t"\${OXO_EMPTY}" "\${OXO_NASTY}" k=v -x --y=1,2 @a %b +c`,
    `${dump} exit3 "\${OXO_NASTY}"`,
  ];
  const envs: Record<string, NodeJS.ProcessEnv> = {
    'no PWD': { ...ENV },
    'a stale PWD': { ...ENV, PWD: root, OLDPWD: '/x' },
    'a PWD through a symlink': { ...ENV, PWD: path.join(root, 'link') },
    'a PWD with ..': { ...ENV, PWD: `${work}/../work` },
    'a PWD that does not exist': { ...ENV, PWD: '/nonexistent' },
    "PATH holding the program's folder, LINENO and ENV set": { ...ENV, PATH: `${root}:/usr/bin:/bin`, LINENO: '3', ENV: '/x' },
  };
  for (const [label, env] of Object.entries(envs)) {
    it.runIf(spawner !== undefined)(`gives the program the same argv, environment and exit (${label})`, async () => {
      expect(directEnvironmentOk(env)).toBe(true);
      for (const script of [...scripts, 'dump a "${OXO_OUTPUT_0}"']) {
        const argv = simpleCommand(script, env);
        expect(argv, script).not.toBeNull();
        const viaSh = await run(['/bin/sh', '-c', script], env);
        const direct = await run(argv!, env, ['/bin/sh', '-c', script]);
        expect(direct, script).toEqual(viaSh);
      }
    });
  }

  it.runIf(spawner !== undefined)('a program that cannot be exec\'d ends as under sh: its message, 127 or 126, a script without #! run by sh', async () => {
    writeFileSync(path.join(root, 'plain'), 'echo "no shebang: $# $1"\nexit 4\n', { mode: 0o755 });
    writeFileSync(path.join(root, 'noexec'), '#!/bin/sh\necho never\n', { mode: 0o644 });
    for (const script of ['no-such-program a', `${root}/no-such-file`, `${root}/noexec`, `${root}/plain "\${OXO_OUTPUT_0}"`, 'plain x', `${root}`]) {
      const env = { ...ENV, PATH: `${root}:/usr/bin:/bin` };
      const viaSh = await run(['/bin/sh', '-c', script], env);
      const direct = await run(simpleCommand(script, env)!, env, ['/bin/sh', '-c', script]);
      expect(direct, script).toEqual(viaSh);
      expect(viaSh.code, script).not.toBe(0);
    }
  });
});

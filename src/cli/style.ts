// The few text styles human output uses. Plain output (no TTY, NO_COLOR, --no-color, --json) never
// loads chalk; colour loads it on demand.
import { createRequire } from 'node:module';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const same = (text: string) => text;

export const plainStyle: Style = { bold: same, dim: same, red: same, green: same, yellow: same, cyan: same };

export function makeStyle(color: boolean): Style {
  if (!color) return plainStyle;
  // require, not import(): makeStyle stays synchronous. chalk is an ES module; Node 20.19+ and
  // 22.12+ (the engines range) require those synchronously.
  const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
    cyan: (t) => c.cyan(t),
  };
}

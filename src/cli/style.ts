// The few text styles human output uses. Plain output (no TTY, NO_COLOR, --no-color, --json) never
// loads chalk; colour loads it on demand.

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

export async function makeStyle(color: boolean): Promise<Style> {
  if (!color) return plainStyle;
  const { Chalk } = await import('chalk');
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

import { Chalk, type ChalkInstance } from 'chalk';

export type Style = ChalkInstance;

export function makeStyle(color: boolean): Style {
  return new Chalk({ level: color ? 1 : 0 });
}

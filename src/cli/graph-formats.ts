// Three drawings of one graph: ascii (levels, each node with what it needs), Graphviz dot, Mermaid.
import type { Graph } from '../workflow/dag/rule-graph.js';
import { terminalSafeLine } from './terminal-safe.js';

export type GraphFormat = 'ascii' | 'dot' | 'mermaid';

export function drawGraph(graph: Graph, format: GraphFormat, title: string): string {
  switch (format) {
    case 'ascii':
      return ascii(graph, title);
    case 'dot':
      return dot(graph, title);
    case 'mermaid':
      return mermaid(graph);
  }
}

function ascii(graph: Graph, title: string): string {
  const needs = new Map<string, string[]>();
  for (const e of graph.edges) (needs.get(e.to) ?? needs.set(e.to, []).get(e.to)!).push(e.from);
  const lines = [terminalSafeLine(title)];
  let level = -1;
  for (const n of graph.nodes) {
    if (n.level !== level) {
      level = n.level;
      lines.push(`level ${level + 1}`);
    }
    const from = needs.get(n.id);
    lines.push(`  ${terminalSafeLine(n.id)}${from ? `  ← ${terminalSafeLine(from.join(', '))}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function quoteDot(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function dot(graph: Graph, title: string): string {
  const lines = [`digraph ${quoteDot(title)} {`, '  rankdir=LR;', '  node [shape=box];'];
  for (const n of graph.nodes) lines.push(`  ${quoteDot(n.id)};`);
  for (const e of graph.edges) lines.push(`  ${quoteDot(e.from)} -> ${quoteDot(e.to)};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function mermaid(graph: Graph): string {
  // Mermaid ids must be plain words; the label carries the real name.
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const label = (s: string) => `"${s.replace(/"/g, '#quot;')}"`;
  const lines = ['flowchart TD'];
  for (const n of graph.nodes) lines.push(`  ${ids.get(n.id)}[${label(n.id)}]`);
  for (const e of graph.edges) lines.push(`  ${ids.get(e.from)} --> ${ids.get(e.to)}`);
  return `${lines.join('\n')}\n`;
}

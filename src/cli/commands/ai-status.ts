// `oxo-flow ai` / `ai status`: skills (scope, format, type, status, active), where activation came
// from, the provider (or DISABLED and how to enable it) and the MCP servers of active tool skills.
// No network unless --check, which connects to each MCP server of an active tool skill.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { resolveProjectProvider } from '../../ai/project-provider.js';
import { providerInfo } from '../../ai/providers/registry.js';
import { sameOrigin, type ResolvedProvider } from '../../ai/providers/resolve.js';
import { loadSkillContext, skillAlias, skillSha256, statusCounts, type Skill, type SkillContext } from '../../ai/skills/index.js';
import type { ServerStatus } from '../../ai/tools/registry.js';
import type { ProviderCheck } from '../../ai/providers/check.js';
import { maskUrl, redactSecrets } from '../../ai/secrets.js';
import { proxyFor, proxySettings } from '../../net/http.js';
import type { CliContext } from '../context.js';
import { outcomeOf, type CommandResult } from '../result.js';
import type { Style } from '../style.js';
import { terminalSafeLine as safe } from '../terminal-safe.js';
import { resolveWorkflowPath } from '../workflow-path.js';
import { noteSkillSecrets, renderSkillTable, skillJson } from './ai-skills.js';

export interface AiStatusOptions {
  workflow?: string;
  project?: string;
  check?: boolean;
  all?: boolean;
  skill?: string[];
}

export async function aiStatus(opts: AiStatusOptions, ctx: CliContext): Promise<CommandResult> {
  const diagnostics: Diagnostic[] = [];
  let workflowPath: string | undefined;
  if (opts.workflow !== undefined) {
    const found = resolveWorkflowPath(opts.workflow, ctx.cwd);
    if (!found.ok) return { outcome: 'usage', json: {}, diagnostics: [found.diagnostic] };
    workflowPath = found.path;
  } else {
    // Without an argument, the project's default workflow (if there is exactly one) supplies [ai] skills.
    const found = resolveWorkflowPath(undefined, opts.project !== undefined ? path.resolve(ctx.cwd, opts.project) : ctx.cwd);
    if (found.ok) workflowPath = found.path;
  }
  const sc = await loadSkillContext({
    cwd: ctx.cwd,
    env: ctx.env,
    ...(workflowPath ? { workflowPath } : {}),
    ...(opts.project !== undefined ? { project: opts.project } : {}),
    skillFlags: opts.skill ?? [],
  });
  noteSkillSecrets(sc.discovery.skills, ctx);
  diagnostics.push(...sc.diagnostics, ...sc.activation.warnings);
  // A cache that was ignored or not written changes nothing: said only when asked for detail.
  if (ctx.verbose || ctx.json) diagnostics.push(...sc.cacheNotes);
  const unusable = unusableSummary(sc.discovery.skills);
  if (unusable) diagnostics.push(unusable);
  const provider = resolveProjectProvider(sc, ctx.env);
  diagnostics.push(...provider.diagnostics);
  const checks = opts.check ? await checkServers(sc, ctx, diagnostics) : undefined;
  let providerCheck: ProviderCheck | undefined;
  if (opts.check && provider.kind !== 'disabled') {
    const { checkProvider } = await import('../../ai/providers/check.js');
    const { providerSecrets } = await import('../../ai/providers/create.js');
    providerCheck = await checkProvider(provider, ctx.env);
    if (!providerCheck.ok) {
      const e = providerCheck.error;
      const message = redactSecrets(`--check: provider ${provider.kind} (model ${provider.model ?? '-'}) did not answer: ${providerCheck.diagnosis} [${e.message}]`, providerSecrets(provider, ctx.env));
      diagnostics.push(diagnostic(e.code, message, { hint: e.hint }));
    }
  }

  const outcome = outcomeOf(diagnostics);
  const proxy = providerProxy(provider, ctx.env);
  return {
    outcome,
    json: () => ({ ...statusJson(sc, provider, Boolean(opts.all), checks, proxy), ...(providerCheck ? { provider_check: providerCheckJson(providerCheck) } : {}) }),
    diagnostics,
    human: (style) => renderStatus(sc, provider, Boolean(opts.all), style, ctx.cwd, checks, proxy) + (providerCheck ? `\n${renderProviderCheck(providerCheck, style)}` : ''),
  };
}

/** The proxy the provider's requests would go through (HTTPS_PROXY …), masked; null when direct. */
function providerProxy(provider: ResolvedProvider, env: Readonly<Record<string, string | undefined>>): string | null {
  if (provider.baseUrl === undefined) return null;
  try {
    const via = proxyFor(new URL(provider.baseUrl), proxySettings(env));
    return via === undefined ? null : maskUrl(via);
  } catch {
    return null;
  }
}

/** Statuses that leave a skill unusable (shadowed is usable by its alias). */
const UNUSABLE = ['invalid', 'oversize', 'excluded', 'ambiguous'] as const;

/**
 * One warning that counts every project and user skill that cannot be used, per status, so a large
 * collection with a few broken skills is visible in `counts` without a line per skill (the table and
 * `ai skills validate` give the reasons). Built-in skills are the package's own and are left out.
 */
function unusableSummary(skills: readonly Skill[]): Diagnostic | undefined {
  const counts = statusCounts(skills.filter((s) => s.scope !== 'builtin'));
  const parts = UNUSABLE.filter((st) => counts[st] > 0).map((st) => `${counts[st]} ${st}`);
  if (parts.length === 0) return undefined;
  const total = UNUSABLE.reduce((n, st) => n + counts[st], 0);
  return diagnostic('SK062', `${total} of ${skills.filter((s) => s.scope !== 'builtin').length} project and user skills cannot be used: ${parts.join(', ')}`, {
    hint: 'run `oxo-flow ai skills validate` to see every finding; a skill you do not list is never activated, so these only matter if you want them',
  });
}

type ServerChecks = Map<string, ServerStatus>;

function providerCheckJson(c: ProviderCheck): Record<string, unknown> {
  return c.ok
    ? { ok: true, model: c.model, ms: c.ms, usage: c.usage }
    : { ok: false, class: c.error.errorClass, code: c.error.code, diagnosis: c.diagnosis, message: c.error.message, status: c.error.status ?? null, ms: c.ms };
}

function renderProviderCheck(c: ProviderCheck, style: Style): string {
  return c.ok
    ? `${style.bold('Provider check')}\n  ${style.green('ok')}: ${safe(c.model)} answered in ${c.ms} ms`
    : `${style.bold('Provider check')}\n  ${style.red('failed')}: ${c.diagnosis} (${c.error.code})\n  ${safe(c.error.message)}`;
}

/** `--check`: connect to each active tool skill's server (its own timeouts) and list its tools. */
async function checkServers(sc: SkillContext, ctx: CliContext, diagnostics: Diagnostic[]): Promise<ServerChecks> {
  const { checkMcpServers } = await import('../../ai/tools/open-registry.js');
  const statuses = await checkMcpServers({ active: sc.activation.active, env: ctx.env, clientInfo: { name: 'oxo-flow', version: ctx.version } });
  for (const st of statuses) {
    if (st.error) diagnostics.push(diagnostic(st.error.code, `MCP server ${st.name} (${maskUrl(st.url)}): ${st.error.message}`, st.error.hint ? { hint: st.error.hint } : {}));
  }
  return new Map(statuses.map((st) => [st.name, st]));
}

function activeToolServers(sc: SkillContext, checks?: ServerChecks) {
  return sc.activation.active
    .filter((s) => s.type === 'tool' && s.mcp)
    .map((s) => ({
      ...checkJson(checks?.get(s.name)),
      skill: s.name,
      alias: skillAlias(s),
      url: maskUrl(s.mcp!.url),
      header_names: Object.keys(s.mcp!.headers),
      connect_timeout_ms: s.mcp!.connectTimeoutMs ?? 30_000,
      call_timeout_ms: s.mcp!.callTimeoutMs ?? 60_000,
      trust_annotations: s.mcp!.trustAnnotations,
    }));
}

function checkJson(st: ServerStatus | undefined): Record<string, unknown> {
  if (!st) return { checked: false };
  return {
    checked: true,
    ok: st.ok,
    protocol_version: st.protocolVersion ?? null,
    server_name: st.serverName ?? null,
    tool_count: st.toolCount ?? null,
    error: st.error ?? null,
  };
}

function providerJson(p: ResolvedProvider, proxy: string | null): Record<string, unknown> {
  return {
    proxy,
    kind: p.kind,
    status: p.kind === 'disabled' ? 'disabled' : 'configured',
    source: p.kindSource,
    model: p.model ?? null,
    model_source: p.modelSource ?? null,
    endpoint: p.baseUrl !== undefined ? maskUrl(p.baseUrl) : null,
    endpoint_source: p.baseUrlSource ?? null,
    key_present: p.keyPresent,
    key_source: p.keySource ?? null,
    ...(p.keyNote ? { key_note: p.keyNote } : {}),
    ...(p.scriptPath ? { script: p.scriptPath } : {}),
    // The fallback's URL may carry a password (user-info) or a key in its query: masked like the endpoint.
    fallback: p.fallback ? { ...p.fallback, ...(p.fallback.baseUrl !== undefined ? { baseUrl: maskUrl(p.fallback.baseUrl) } : {}) } : null,
    config_file: p.configFile,
    config_found: p.configFound,
    hint: p.hint ?? null,
  };
}

function statusJson(sc: SkillContext, provider: ResolvedProvider, all: boolean, checks: ServerChecks | undefined, proxy: string | null): Record<string, unknown> {
  const active = new Set(sc.activation.active);
  const builtins = sc.discovery.skills.filter((s) => s.scope === 'builtin');
  return {
    network: checks !== undefined && checks.size > 0,
    project: {
      dir: sc.projectDir,
      ai_toml: { path: sc.projectConfig.file, exists: sc.projectConfig.exists },
      workflow: sc.workflowPath ?? null,
      home: sc.homeDir,
      skill_roots: sc.discovery.roots,
    },
    skills: sc.discovery.skills.map((s) => skillJson(s, active.has(s))),
    // Every discovered skill by status (built-ins included), so nothing cut or broken goes uncounted.
    skill_counts: { total: sc.discovery.skills.length, ...statusCounts(sc.discovery.skills), by_scope: countsByScope(sc.discovery.skills) },
    builtin: { count: builtins.length, ok: builtins.filter((s) => s.status === 'ok').length, listed: all },
    activation: {
      sources: sc.activation.sources,
      active: sc.activation.active.map((s) => ({ name: s.name, alias: skillAlias(s), scope: s.scope, type: s.type ?? null, path: s.path, sha256: skillSha256(s) ?? null })),
      warnings: sc.activation.warnings.length,
    },
    provider: providerJson(provider, proxy),
    mcp_servers: activeToolServers(sc, checks),
  };
}

function countsByScope(skills: readonly Skill[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const scope of ['project', 'user', 'builtin'] as const) out[scope] = statusCounts(skills.filter((s) => s.scope === scope));
  return out;
}

/** Present (from where), not needed, or missing; or why an exported key is not sent to this endpoint. */
function keyLine(provider: ResolvedProvider, style: Style): string {
  if (provider.keyPresent) return `present (${provider.keySource})`;
  if (provider.keyNote) return `none: ${safe(provider.keyNote)}`;
  const info = providerInfo(provider.kind);
  const own = info?.baseUrl !== undefined && sameOrigin(provider.baseUrl, info.baseUrl);
  if (info === undefined || !info.keyRequired) return 'not needed';
  return own ? style.yellow('missing') : 'none (this endpoint gets no key unless `ai setup --key-env NAME` names one)';
}

function renderStatus(sc: SkillContext, provider: ResolvedProvider, all: boolean, style: Style, cwd: string, checks: ServerChecks | undefined, proxy: string | null): string {
  const rel = (p: string) => (path.relative(cwd, p) || '.').replace(/^(?!\.\.|\/)/, '');
  const active = new Set(sc.activation.active);
  const builtins = sc.discovery.skills.filter((s) => s.scope === 'builtin');
  const listed = all ? sc.discovery.skills : sc.discovery.skills.filter((s) => s.scope !== 'builtin');
  const out: string[] = [style.bold('AI status'), ''];
  out.push(`${style.bold('Skills')} ${style.dim(`(project ${rel(sc.projectDir)}, user ${sc.homeDir}/skills)`)}`);
  if (listed.length > 0) {
    out.push(renderSkillTable(listed, active, style));
    const counts = statusCounts(listed);
    const parts = Object.entries(counts).filter(([, n]) => n > 0).map(([st, n]) => `${n} ${st}`);
    out.push(style.dim(`  ${listed.length} skill${listed.length === 1 ? '' : 's'}: ${parts.join(', ')}`));
  }
  else out.push(`  no user or project skills: add <name>.skill.toml or <name>/SKILL.md to ${path.join(rel(sc.projectDir), '.oxo-flow', 'skills')} or ${path.join(sc.homeDir, 'skills')} (\`oxo-flow ai skills new NAME\`)`);
  if (!all && builtins.length > 0) {
    const activeBuiltins = builtins.filter((s) => active.has(s)).map((s) => s.name);
    out.push(`  + ${builtins.length} built-in skills (${builtins.filter((s) => s.status === 'ok').length} ok${activeBuiltins.length > 0 ? `; active: ${activeBuiltins.join(', ')}` : ''}); list them with --all`);
  }
  out.push('', style.bold('Activation'));
  if (sc.activation.sources.length === 0) {
    out.push('  no skills listed: nothing is active. List names in `skills = [...]` under [ai] in .oxo-flow/ai.toml or the workflow, or pass --skill NAME');
  } else {
    for (const src of sc.activation.sources) {
      const from = src.file ? `${src.from} (${rel(src.file)})` : src.from;
      out.push(`  ${safe(src.name).padEnd(24)} ${style.dim(safe(from))}  ${src.activated ? style.green(`active as ${safe(src.activated)}`) : style.yellow('not activated (see warning)')}`);
    }
  }
  out.push('', style.bold('Provider'));
  if (provider.kind === 'disabled') {
    out.push(`  Status: ${style.yellow('DISABLED')}`);
    if (provider.hint) out.push(`  To enable: ${provider.hint}`);
  } else {
    out.push(`  Provider: ${provider.kind} ${style.dim(`(from ${provider.kindSource})`)}`);
    out.push(`  Model:    ${safe(provider.model ?? '-')} ${style.dim(`(from ${provider.modelSource ?? 'default'})`)}`);
    if (provider.baseUrl) out.push(`  Endpoint: ${safe(maskUrl(provider.baseUrl))} ${style.dim(`(from ${provider.baseUrlSource ?? 'default'})`)}`);
    if (proxy) out.push(`  Proxy:    ${safe(proxy)} ${style.dim('(HTTPS_PROXY / HTTP_PROXY; NO_PROXY exempts hosts)')}`);
    if (provider.scriptPath) out.push(`  Script:   ${safe(provider.scriptPath)}`);
    out.push(`  API key:  ${keyLine(provider, style)}`);
    if (provider.fallback) {
      const fb = provider.fallback;
      out.push(`  Fallback: ${safe(fb.provider)}${fb.model ? ` / ${safe(fb.model)}` : ''}${fb.baseUrl ? ` at ${safe(maskUrl(fb.baseUrl))}` : ''}`);
    }
  }
  const servers = activeToolServers(sc);
  out.push('', style.bold('MCP servers') + style.dim(checks ? ' (of active tool skills; checked)' : ' (of active tool skills; not contacted, use --check)'));
  if (servers.length === 0) out.push('  none');
  for (const s of servers) {
    const st = checks?.get(s.skill);
    const state = !st ? '' : st.ok ? style.green(` ok: ${st.toolCount ?? 0} tools`) : style.red(` unreachable or failing (${st.error?.code ?? 'error'})`);
    out.push(`  ${safe(s.alias).padEnd(24)} ${safe(s.url)}${s.header_names.length > 0 ? style.dim(` headers: ${safe(s.header_names.join(', '))}`) : ''}${state}`);
  }
  return out.join('\n');
}

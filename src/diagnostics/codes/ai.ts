import type { CodeInfo } from '../code-info.js';

const doc = 'docs/cli.md';

/** The `--ai` review on validate, lint and dry-run: reported once, never changing the deterministic result. */
export const aiCodes = {
  AI001: { severity: 'info', title: 'AI review skipped: no AI provider is configured', doc },
  AI002: { severity: 'warning', title: 'AI review not run: this build has no client for the configured provider', doc },
} as const satisfies Record<string, CodeInfo>;

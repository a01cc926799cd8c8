export { planWorkflow, type PlanResult } from './plan-workflow.js';
export type { JobReason, JobSpec, JobStatus, Plan, PlanFs, PlanSettings, PlanSummary } from './types.js';
export { RUN_REASONS, SKIP_REASONS } from './types.js';

export { planWorkflow, type PlanResult } from './plan-workflow.js';
export type { JobReason, JobSpec, JobStatus, Plan, PlanFs, PlanRecord, PlanSettings, PlanState, PlanSummary } from './types.js';
export { JOB_REASONS, RUN_REASONS, SKIP_REASONS } from './types.js';
export { jobHash } from './job-hash.js';
export { tempOutputs, type TempOutputs } from './temp-outputs.js';
export type { EnvironmentChoice, ResourceSettings } from './resources.js';

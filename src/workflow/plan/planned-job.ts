// The JobSpec that planWorkflow hands out. Two of its fields are worked out on first read and then
// kept: the rendered command (the expanded job renders it) and the ids of the jobs it waits for.
// dry-run of 12,000 jobs prints a handful of them, and building both for every job was a large share
// of its time; --json and run read every one and get the same values as before.
import type { Environment } from '../model.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import type { JobReason, JobSpec, JobStatus } from './types.js';

export class PlannedJob implements JobSpec {
  id: string;
  rule: string;
  declare step?: 'map' | 'combine';
  wildcards: Record<string, string>;
  inputs: string[];
  outputs: string[];
  declare log?: string;
  declare memoryMb?: number;
  declare memory?: string;
  declare environment?: Environment;
  declare detail?: string;
  declare timeLimitSeconds?: number;
  declare targeted?: true;
  retries: number;
  tempOutputs: string[];
  protectedOutputs: string[];
  #job: ExpandedJob;
  #deps: readonly number[];
  #jobs: readonly ExpandedJob[];
  #dependsOn: string[] | undefined;

  constructor(
    jobs: readonly ExpandedJob[],
    index: number,
    deps: readonly number[],
    public threads: number,
    public level: number,
    public status: JobStatus,
    public reason: JobReason,
    public missingInputs: string[],
  ) {
    const job = jobs[index]!;
    this.id = job.id;
    this.rule = job.rule.name;
    this.wildcards = job.wildcards;
    this.inputs = job.inputs;
    this.outputs = job.outputs;
    this.retries = job.rule.retries;
    this.tempOutputs = job.tempOutputs;
    this.protectedOutputs = job.protectedOutputs;
    const limit = job.rule.resources.timeLimitSeconds;
    if (limit !== undefined) this.timeLimitSeconds = limit;
    this.#job = job;
    this.#deps = deps;
    this.#jobs = jobs;
  }

  get command(): string {
    return this.#job.command;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#job.env;
  }

  get shownEnv(): Readonly<Record<string, string>> {
    return this.#job.shownEnv;
  }

  get shownCommand(): string {
    return this.#job.shownCommand;
  }

  get stateEnv(): Readonly<Record<string, string>> {
    return this.#job.stateEnv;
  }

  get jobJson(): string | undefined {
    return this.#job.jobJson;
  }

  get dependsOn(): string[] {
    return (this.#dependsOn ??= this.#deps.map((d) => this.#jobs[d]!.id));
  }

  /**
   * JSON.stringify sees every field, the computed ones included: the exact script (it holds no
   * value) and the values it gets as displays see them (sensitive ones masked): anything serialised
   * may be shown or logged.
   */
  toJSON(): JobSpec {
    return { ...this, command: this.command, env: this.shownEnv, shownEnv: this.shownEnv, shownCommand: this.shownCommand, dependsOn: this.dependsOn };
  }
}

// The JobSpec that planWorkflow hands out: a view of what the plan already holds, not a copy. Its
// fields are read from the expanded job, from what every job of its rule shares (threads, memory,
// environment) and from the job's status decision, most of which is one object shared by thousands of
// jobs ("never completed"); its level, dependencies and whether a target names it come from the plan's
// graph by the job's index. A 120,000-job plan is then 120,000 small objects of five fields rather
// than of twenty. Two values are worked out on first read and kept: the rendered command (the expanded job
// renders it) and the ids of the jobs it waits for. dry-run of 12,000 jobs prints a handful of them;
// --json and run read every one and get the same values as before.
import type { Environment } from '../model.js';
import type { Dag } from '../dag/build-dag.js';
import type { ExpandedJob } from '../expand/expand-jobs.js';
import type { JobDecision } from './status.js';
import type { CommandForms, JobReason, JobSpec, JobStatus } from './types.js';

/** What every job of one rule has in its spec: one object per rule, shared by its jobs. */
export interface RuleFacts {
  /** The rule's name. */
  readonly rule: string;
  readonly threads: number;
  readonly memoryMb?: number;
  /** As written ("8G"), or `${memoryMb}M` when only the default gives a number. */
  readonly memory?: string;
  readonly environment?: Environment;
  /** The plan's expanded jobs (dependsOn reads their ids). */
  readonly jobs: readonly ExpandedJob[];
  /** The plan's graph: each job's dependencies and level, by the job's index. */
  readonly dag: Pick<Dag, 'deps' | 'levels'>;
  /** Indices of the jobs named by a target. */
  readonly targets: ReadonlySet<number>;
}

export class PlannedJob implements JobSpec {
  #job: ExpandedJob;
  /** The job's index in the plan's graph. */
  #index: number;
  #facts: RuleFacts;
  #decision: JobDecision;
  #dependsOn: string[] | undefined;

  constructor(job: ExpandedJob, index: number, facts: RuleFacts, decision: JobDecision) {
    this.#job = job;
    this.#index = index;
    this.#facts = facts;
    this.#decision = decision;
  }

  get level(): number {
    return this.#facts.dag.levels[this.#index]!;
  }

  get id(): string {
    return this.#job.id;
  }

  get rule(): string {
    return this.#facts.rule;
  }

  get step(): 'map' | 'combine' | undefined {
    return this.#job.step;
  }

  get wildcards(): Record<string, string> {
    return this.#job.wildcards;
  }

  get inputs(): string[] {
    return this.#job.inputs;
  }

  get outputs(): string[] {
    return this.#job.outputs;
  }

  get log(): string | undefined {
    return this.#job.log;
  }

  get threads(): number {
    return this.#facts.threads;
  }

  get memoryMb(): number | undefined {
    return this.#facts.memoryMb;
  }

  get memory(): string | undefined {
    return this.#facts.memory;
  }

  get environment(): Environment | undefined {
    return this.#facts.environment;
  }

  get retries(): number {
    return this.#job.rule.retries;
  }

  get timeLimitSeconds(): number | undefined {
    return this.#job.rule.resources.timeLimitSeconds;
  }

  get tempOutputs(): string[] {
    return this.#job.tempOutputs;
  }

  get protectedOutputs(): string[] {
    return this.#job.protectedOutputs;
  }

  get targeted(): true | undefined {
    return this.#facts.targets.size > 0 && this.#facts.targets.has(this.#index) ? true : undefined;
  }

  get status(): JobStatus {
    return this.#decision.status;
  }

  get reason(): JobReason {
    return this.#decision.reason;
  }

  get detail(): string | undefined {
    return this.#decision.detail;
  }

  get missingInputs(): string[] {
    return this.#decision.missingInputs;
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

  commandForms(): CommandForms {
    return this.#job.commandForms();
  }

  get stateEnv(): Readonly<Record<string, string>> {
    return this.#job.stateEnv;
  }

  get jobJson(): string | undefined {
    return this.#job.jobJson;
  }

  get dependsOn(): string[] {
    return (this.#dependsOn ??= this.#facts.dag.deps[this.#index]!.map((d) => this.#facts.jobs[d]!.id));
  }

  /**
   * JSON.stringify sees every field that has a value, the computed ones included: the exact script (it
   * holds no value) and the values it gets as displays see them (sensitive ones masked): anything
   * serialised may be shown or logged.
   */
  toJSON(): JobSpec {
    const out: Record<string, unknown> = {
      id: this.id,
      rule: this.rule,
      wildcards: this.wildcards,
      inputs: this.inputs,
      outputs: this.outputs,
      retries: this.retries,
      tempOutputs: this.tempOutputs,
      protectedOutputs: this.protectedOutputs,
      threads: this.threads,
      level: this.level,
      status: this.status,
      reason: this.reason,
      missingInputs: this.missingInputs,
    };
    const optional: [string, unknown][] = [
      ['timeLimitSeconds', this.timeLimitSeconds],
      ['step', this.step],
      ['log', this.log],
      ['memoryMb', this.memoryMb],
      ['memory', this.memory],
      ['environment', this.environment],
      ['detail', this.detail],
      ['targeted', this.targeted],
    ];
    for (const [key, value] of optional) if (value !== undefined) out[key] = value;
    return { ...out, command: this.command, env: this.shownEnv, shownEnv: this.shownEnv, shownCommand: this.shownCommand, dependsOn: this.dependsOn } as unknown as JobSpec;
  }
}

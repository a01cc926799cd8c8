// The compact .oxoflow reference a drafting model gets in its system prompt: what the format is,
// the fields it will need, the placeholders, and how our spellings differ from Snakemake's (the
// syntax most models know best and reach for first). The full schema and whole templates are one
// read_format call away. Facts here follow docs/format.md; keep the two in step.
export const FORMAT_REFERENCE = `## The .oxoflow format (TOML)
- [workflow] is required, with name (not empty); also description, author, version. Optional:
  sample_pattern = "raw/{sample}_R1.fq.gz" (the matching files name the samples).
- [config]: values used as {config.KEY} in paths and shells; an unknown key is an error (E005).
- [defaults]: threads, memory ("4G"), environment for every rule.
- [[sample_groups]]: name = "treated", samples = ["T1", "T2"], metadata = { condition = "treated" }.
  Each sample fills {sample}, each group name {group}. config.samples_list is filled by the engine.
- [[pairs]] (tumour/normal, ChIP/input): pair_id, experiment, control; they fill {pair_id},
  {experiment}, {control}.
- [[rules]]: name (unique), description, input (array, or a table { r1 = "...", r2 = "..." }),
  output (same forms), log, shell (one string; triple quotes for several lines), threads, memory,
  params = { key = value }, environment = { conda = "envs/x.yaml" } (or docker/singularity/pixi/venv),
  depends_on = ["rule"], when = "config.run_qc == true".
- Fan-out: a rule whose input/output use {sample} runs once per sample.
- Fan-in: expand_inputs = [{ pattern = "counts/{sample}.txt", variables = { sample = "config.samples_list" } }]
  collects every sample's file into one job's {input}; variables = { sample = "config.samples_{group}" }
  with output "merged/{group}.tsv" makes one job per group over that group's samples.
- params strings take placeholders (rg = "@RG\\tID:{sample}"); an array is an option list, one
  argument per element: write {params.opts} as a bare word, never inside "...".
- script = "scripts/x.py" (python3; .R Rscript, .sh bash) gets OXO_INPUT_0, OXO_OUTPUT_0, OXO_THREADS,
  OXO_PARAMS_KEY, OXO_SAMPLE in its environment and the whole job as JSON in the file $OXO_JOB_JSON.
- Placeholders: {input} {output} (all paths), {input[0]}, {input.r1}, {output[1]}, {log}, {threads},
  {memory}, {params.key}, {config.key}, {sample}, {group}. Shell text such as \${HOME} or awk '{print $1}'
  stays as written. A rule with outputs needs shell (or script); write every output and the log.
- Not Snakemake: no "rule x:" blocks, no input:/output:/shell: keywords, no expand() or rule all,
  no {wildcards.sample} (write {sample}), no {resources.mem_mb} (write {memory}), no conda: (write
  environment = { conda = "..." }), no Python code. Targets follow from outputs; no "all" rule is needed.`;

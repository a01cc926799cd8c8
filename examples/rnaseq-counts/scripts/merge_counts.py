"""Merge per-sample featureCounts tables into one gene x sample matrix.

Run by oxo-flow as the script of rule merge_counts: the job (its inputs, outputs and params) is
read from the JSON file named by OXO_JOB_JSON. Each input is a featureCounts output, named
<sample><suffix>; the matrix has a gene_id column, then one column per input, in input order.
"""
import json
import os
import sys

job = json.load(open(os.environ["OXO_JOB_JSON"]))
suffix = job["params"]["suffix"]
genes = None
columns = []
for path in job["input"]:
    name = os.path.basename(path)
    if not name.endswith(suffix):
        sys.exit(f"merge_counts: {path} does not end in {suffix}: cannot tell its sample")
    with open(path) as table:
        rows = [line.rstrip("\n").split("\t") for line in table if not line.startswith("#")]
    # rows[0] is featureCounts' header: Geneid Chr Start End Strand Length <bam>
    ids = [r[0] for r in rows[1:]]
    if genes is None:
        genes = ids
    elif ids != genes:
        sys.exit(f"merge_counts: {path} lists other genes than {job['input'][0]}: counted against another annotation?")
    columns.append((name[: -len(suffix)], [r[6] for r in rows[1:]]))

with open(job["output"][0], "w") as out:
    out.write("\t".join(["gene_id"] + [sample for sample, _ in columns]) + "\n")
    for i, gene in enumerate(genes or []):
        out.write("\t".join([gene] + [counts[i] for _, counts in columns]) + "\n")

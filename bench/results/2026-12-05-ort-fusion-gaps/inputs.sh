# inputs for a model id from the manifest (5th column) as --input flags
inputs() { awk -F'\t' -v id="$1" '$1==id {n=split($5,a,";"); for(i=1;i<=n;i++) printf "--input %s ", a[i]}' ../../../tests/data/torch-models.tsv; }

#!/usr/bin/env bash
# Renders the first printed page of the demo's workbook (its Summary) to docs/summary.png, as LibreOffice prints
# it: runs the demo as of a fixed day (so the picture comes out the same every time), prints the workbook to PDF
# headless, and turns page 1 into a PNG; its text (pdftotext -layout) goes beside it as docs/summary.txt, which CI
# compares with what it prints itself, so the committed picture cannot drift from what the code shows.
#
#     scripts/render-summary.sh [OUTPUT.png]      (the text goes to OUTPUT.txt)
#
# Needs LibreOffice Calc and poppler: apt-get install -y libreoffice-calc-nogui poppler-utils
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-docs/summary.png}"
# The day the picture is drawn as of: change it only together with the committed picture.
today=2026-11-28

for tool in soffice pdftoppm pdftotext; do
    command -v "$tool" >/dev/null || {
        echo "error: $tool is missing; run: apt-get install -y libreoffice-calc-nogui poppler-utils" >&2
        exit 2
    }
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

swift run connect-recon demo --today "$today" --out "$scratch/reports" >"$scratch/demo.log" 2>&1 || {
    cat "$scratch/demo.log" >&2
    echo "error: the demo failed" >&2
    exit 1
}
# The second day's workbook: the one that reports the outcomes that arrived since the first.
workbook="$(ls "$scratch"/reports/*/reconciliation_*.xlsx | tail -n 1)"
soffice -env:UserInstallation="file://$scratch/profile" --headless --convert-to pdf --outdir "$scratch" \
    "$workbook" >"$scratch/soffice.log" 2>&1 || {
    cat "$scratch/soffice.log" >&2
    echo "error: soffice could not print the workbook" >&2
    exit 1
}
pdf="$scratch/$(basename "${workbook%.xlsx}").pdf"
pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$pdf" "$scratch/page"
mkdir -p "$(dirname "$output")"
mv "$scratch/page.png" "$output"
pdftotext -layout -f 1 -l 1 "$pdf" "${output%.png}.txt"
echo "wrote $output and ${output%.png}.txt (page 1 of $(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}') printed pages of $(basename "$workbook"))"

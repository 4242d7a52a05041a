#!/usr/bin/env bash
# Renders the first printed page of the demo's workbook (its Summary) to docs/summary.png, as LibreOffice prints
# it: runs the demo, prints the workbook to PDF headless, and turns page 1 into a PNG.
#
#     scripts/render-summary.sh [OUTPUT.png]
#
# Needs LibreOffice Calc and poppler: apt-get install -y libreoffice-calc-nogui poppler-utils
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-docs/summary.png}"

for tool in soffice pdftoppm; do
    command -v "$tool" >/dev/null || {
        echo "error: $tool is missing; run: apt-get install -y libreoffice-calc-nogui poppler-utils" >&2
        exit 2
    }
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

swift run connect-recon demo --out "$scratch/reports" >"$scratch/demo.log" 2>&1 || {
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
echo "wrote $output (page 1 of $(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}') printed pages of $(basename "$workbook"))"

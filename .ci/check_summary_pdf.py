#!/usr/bin/env python3
"""Checks that a workbook printed to PDF by LibreOffice opens on its Summary.

    python3 .ci/check_summary_pdf.py SUMMARY_CSV FIRST_PAGE_TEXT

SUMMARY_CSV is the report's summary.csv; FIRST_PAGE_TEXT is `pdftotext -f 1 -l 1` of the workbook's PDF. Passes
when the first page shows the Summary's first currency and its Destination Platform Fee total as the workbook
formats it (thousands grouped, the currency's decimals: 23257.34 prints as 23,257.34). Exit status: 0 fine,
1 the figure is not on the first page, 2 bad usage.
"""
import csv
import sys


def grouped(amount):
    """The CSV's amount as the workbook's number format shows it: -1234.5 stays -1,234.5 (decimals as given)."""
    sign = "-" if amount.startswith("-") else ""
    whole, _, fraction = amount.lstrip("-").partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return sign + ",".join(groups) + ("." + fraction if fraction else "")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    with open(argv[2], encoding="utf-8") as file:
        page = file.read()
    if not rows:
        print("check_summary_pdf: summary.csv has no rows; nothing to look for", file=sys.stderr)
        return 1
    first = rows[0]
    figure = grouped(first["destination_platform_fee"])
    missing = [text for text in (first["currency"], figure, "Destination platform fee") if text not in page]
    if missing:
        print(f"check_summary_pdf: the first printed page lacks {missing}; it starts:\n{page[:600]}", file=sys.stderr)
        return 1
    print(f"check_summary_pdf: page 1 shows the Summary ({first['currency']} Destination platform fee {figure})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

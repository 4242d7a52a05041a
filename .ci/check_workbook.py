#!/usr/bin/env python3
"""Reads a connect-recon workbook back with a real reader (openpyxl) and checks what docs/REPORTS.md promises.

    python3 .ci/check_workbook.py REPORT.xlsx [SHEET ...]

SHEET defaults to the sheets docs/REPORTS.md lists, in the workbook's order, Summary first. Checks: the file opens; the
expected sheets exist in this order (continuation sheets such as "Ledger (2)" may follow their sheet); the
first sheet is the active one (the workbook opens on it); every sheet's header row is frozen, filterable and
repeated on each printed page, and the sheet prints landscape, one page wide; every non-empty cell of an amount
or count column is a number, never text (formulas are judged by their cached results). Header texts may be the CSV
column names or their readable labels ("destination_platform_fee" or "Destination platform fee"). On the Summary
only the totals block (down to the first empty row) is a table; the blocks below it are not checked by column. Exit status: 0 all good, 1 a check failed, 2 bad usage or the workbook
does not open. Needs openpyxl (pip install openpyxl).
"""
import os
import re
import sys

DEFAULT_SHEETS = [
    "Summary", "Balance", "Platform fees", "Payouts", "Payout transactions", "Skipped transfers", "Unreversed disputes",
    "Exceptions", "Connected accounts", "Ledger", "Run",
]

# Columns that hold numbers, by sheet (the CSV column names of docs/REPORTS.md; the workbook may show them as readable labels).
NUMERIC_COLUMNS = {
    "Platform fees": {
        "amount", "amount_refunded", "transfer_amount", "transfer_reversed", "application_fee_amount",
        "application_fee_refunded", "destination_platform_fee", "stripe_fee", "platform_net",
    },
    "Skipped transfers": {"amount", "amount_owed"},
    "Unreversed disputes": {"dispute_amount", "recoverable", "recovered", "unrecovered"},
    "Ledger": {"count", "gross", "fee", "net"},
    "Connected accounts": {
        "destination_charges", "gross", "refunded", "transferred", "reversed", "application_fees",
        "destination_platform_fee", "skipped_transfers", "amount_owed", "unreversed_disputes", "unrecovered",
    },
    "Payouts": {"amount", "balance_transactions", "net_of_transactions", "difference"},
    "Payout transactions": {"gross", "fee", "net"},
    "Summary": {
        "destination_charges", "gross", "refunded", "destination_platform_fee", "stripe_fee",
        "skipped_transfers", "amount_owed", "unreversed_disputes", "unrecovered", "pending_charges",
        "pending_amount",
    },
}

# Above this size the workbook is streamed (read-only mode): amounts are still checked, panes are not.
FULL_LOAD_LIMIT = 50 * 1024 * 1024
CONTINUATION = re.compile(r"^(?P<base>.+) \((?P<part>\d+)\)$")


def fail(message, status=1):
    print(f"check_workbook: {message}", file=sys.stderr)
    sys.exit(status)


def label(name):
    """The workbook's readable label of a CSV column name: destination_platform_fee -> Destination platform fee."""
    words = ["ID" if w == "id" else "(UTC)" if w == "utc" else w for w in name.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def base_name(sheet):
    match = CONTINUATION.match(sheet)
    return match.group("base") if match else sheet


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 2 if len(argv) < 2 else 0
    path = argv[1]
    expected = argv[2:] or DEFAULT_SHEETS
    try:
        import openpyxl
    except ImportError:
        fail("openpyxl is not installed: run 'python3 -m pip install openpyxl'", 2)
    if not os.path.isfile(path):
        fail(f"'{path}' does not exist", 2)

    full = os.path.getsize(path) <= FULL_LOAD_LIMIT
    try:
        book = openpyxl.load_workbook(path, data_only=True, read_only=not full)
    except Exception as error:  # openpyxl raises many types for a damaged file
        fail(f"'{path}' does not open as a workbook: {type(error).__name__}: {error}", 2)

    problems = []
    names = book.sheetnames
    bases = [base_name(name) for name in names]
    # Expected sheets in order; continuations right after their sheet.
    ordered = [b for i, b in enumerate(bases) if i == 0 or bases[i - 1] != b]
    missing = [sheet for sheet in expected if sheet not in ordered]
    if missing:
        problems.append(f"missing sheets {missing}; the workbook has {names}")
    elif [b for b in ordered if b in expected] != list(expected):
        problems.append(f"sheets are out of order: expected {expected}, found {names}")

    if full and book.active is not None and names and book.active.title != names[0]:
        problems.append(f"the workbook opens on '{book.active.title}', not on its first sheet '{names[0]}'")

    for name in names:
        sheet = book[name]
        rows = sheet.iter_rows(values_only=True)
        header = next(rows, None)
        if not header or header[0] is None:
            problems.append(f"'{name}': no header row")
            continue
        if full:
            if sheet.freeze_panes != "A2":
                problems.append(f"'{name}': header row is not frozen (freeze_panes={sheet.freeze_panes!r})")
            if not sheet.auto_filter.ref:
                problems.append(f"'{name}': no autofilter over the data")
            if sheet.page_setup.orientation != "landscape":
                problems.append(f"'{name}': does not print landscape")
            fit = sheet.sheet_properties.pageSetUpPr
            if not (fit and fit.fitToPage) or (sheet.page_setup.fitToWidth or 1) != 1:
                problems.append(f"'{name}': does not print one page wide")
            if sheet.print_title_rows != "$1:$1":
                problems.append(f"'{name}': the header row is not repeated on each printed page")
        numeric = NUMERIC_COLUMNS.get(base_name(name), set())
        by_title = {}
        for column in numeric:
            by_title[column] = column
            by_title[label(column)] = column
        columns = [(index, by_title[title]) for index, title in enumerate(header) if title in by_title]
        missing_columns = numeric - {by_title[title] for title in header if title in by_title}
        if missing_columns:
            problems.append(f"'{name}': missing columns {sorted(missing_columns)}")
        bad = 0
        for number, row in enumerate(rows, start=2):
            if base_name(name) == "Summary" and all(value is None for value in row):
                break  # the totals block ends here; the findings, checks and per-day table follow
            for index, title in columns:
                value = row[index] if index < len(row) else None
                if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
                    continue
                bad += 1
                if bad <= 5:
                    problems.append(f"'{name}'!{title} row {number}: {value!r} is {type(value).__name__}, not a number")
        if bad > 5:
            problems.append(f"'{name}': {bad - 5} more non-numeric amounts")

    if problems:
        for problem in problems:
            print(f"check_workbook: {problem}", file=sys.stderr)
        fail(f"{len(problems)} problem(s) in '{path}'")
    print(f"check_workbook: '{path}' is fine: {len(names)} sheets {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env bash
# What adding a kind of Stripe object costs, measured (docs/ARCHITECTURE.md, "Adding a kind, measured"): applies
# scripts/add-a-kind/topups.patch, which adds Stripe's top-ups (`/v1/topups`, listed over the range, stored, judged in
# parts of their own, and a rule: a failed top-up is a `topup_failed` exception in exceptions.csv), to a scratch
# worktree of HEAD, and counts the files it touches: production code outside the sandbox, the sandbox, tests, docs.
#
#   scripts/add-a-kind.sh            # apply and count (seconds); fails when the patch no longer applies
#   scripts/add-a-kind.sh --build    # also build the worktree and run the tests the patch touches (minutes)
#
# It fails as well when docs/ARCHITECTURE.md states another production count than the one measured, so the figure
# there is always the patch's. When the code moves and the patch no longer applies, make the kind again by hand on a
# branch (the compiler's exhaustive switches say where), and save it with `git diff --cached --binary`.
set -euo pipefail
root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
patch="$root/scripts/add-a-kind/topups.patch"
build=false
case "${1:-}" in
    "") ;;
    --build) build=true ;;
    *) echo "usage: scripts/add-a-kind.sh [--build]" >&2; exit 2 ;;
esac

scratch="$(mktemp -d)"
cleanup() {
    git -C "$root" worktree remove --force "$scratch/tree" >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$scratch/tree" HEAD
cd "$scratch/tree"
if ! git apply --index "$patch"; then
    echo "error: $patch no longer applies to HEAD: make the kind again on a branch and save the patch (see this script's header)" >&2
    exit 1
fi

files="$(git diff --cached --name-only)"
count() { grep -cE "$1" <<<"$files" || true; }
production="$(grep -E '^Sources/' <<<"$files" | grep -vcE '^Sources/Sandbox/' || true)"
sandbox="$(count '^Sources/Sandbox/')"
tests="$(count '^Tests/')"
docs="$(count '^docs/')"
lines="$(git diff --cached --numstat -- Sources ':!Sources/Sandbox' | awk '{ added += $1 } END { print added + 0 }')"
echo "adding top-ups touches $production production files outside the sandbox ($lines lines added), $sandbox sandbox files, $tests test files, $docs doc file(s):"
sed 's/^/  /' <<<"$files"

stated="$(grep -oE '\*\*[0-9]+ production files\*\*' "$root/docs/ARCHITECTURE.md" | grep -oE '[0-9]+' | head -n 1)"
if [ "$stated" != "$production" ]; then
    echo "error: docs/ARCHITECTURE.md states ${stated:-no} production files; the patch touches $production: update the figure" >&2
    exit 1
fi

if $build; then
    swift build --build-tests
    swift test --skip-build --filter 'TopupTests|ShippedMigrationsTests|AbsorberTests|WorldTests'
fi

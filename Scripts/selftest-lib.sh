# Shared by the scripts' self-tests (sourced, not run): a scratch folder removed on exit,
# and pass/fail counters with `ok` and `not_ok`, which the test's last line reports.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); printf 'ok     %s\n' "$*"; }
not_ok() { failed=$((failed + 1)); printf 'FAILED %s\n' "$*"; }

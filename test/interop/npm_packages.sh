# What the npm-driven interop tests share (sourced by parquet.sh, otel.sh,
# ddsketch_proto.sh): SKIPPED or FAILED when the real producer cannot run,
# a node version check, and `npm ci` of a test's own folder from its
# committed lock file (into <folder>/node_modules, never globally).
# The sourcing script sets `label` (its messages' prefix) and `what` (the
# test's name in the CI=true failure) first.

# Exits 0 (SKIPPED), or 1 (FAILED) when CI=true.
not_available() {
  if [ "${CI:-}" = true ]; then
    echo "$label: FAILED — $1 (CI=true: the $what interop test must run)"
    exit 1
  fi
  echo "$label: SKIPPED — $1"
  exit 0
}

# require_node MAJOR WHY: node and npm present, node at least MAJOR.
require_node() {
  command -v node >/dev/null 2>&1 || not_available "node is not installed"
  command -v npm >/dev/null 2>&1 || not_available "npm is not installed"
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge "$1" ] || not_available "node $(node --version) is too old ($2)"
}

# npm_ci FOLDER: npm ci when node_modules is missing or older than the lock
# file.
npm_ci() {
  local dir=$1
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
     [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "$label: installing the npm packages of $dir (npm ci)"
    if ! (cd "$dir" && npm ci --no-audit --no-fund >/dev/null 2>npm-ci.log); then
      tail -n 20 "$dir/npm-ci.log" >&2 || true
      not_available "npm ci in $dir failed: the packages cannot be installed"
    fi
    rm -f "$dir/npm-ci.log"
  fi
}

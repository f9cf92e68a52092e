#!/usr/bin/env bash
# Run locally exactly what CI runs.
exec "$(dirname "${BASH_SOURCE[0]}")/../.ci/run" "$@"

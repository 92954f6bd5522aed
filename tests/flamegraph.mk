# SPDX-License-Identifier: GPL-2.0
# scripts/flamegraph.sh (folded stacks -> one offline HTML flame graph)
# end to end in headless Chromium (tests/flamegraph.test).  Needs no
# build: it installs chromium and the pinned npm packages itself.
CHECKS += tests/flamegraph.test

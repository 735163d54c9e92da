# Sourced by .ci/run (which defines fuzz): the workspace rules' not-found
# report (closest region, white-space classification, diff) on arbitrary
# file and FIND texts.
fuzz ./workspace FuzzFindReport 20000

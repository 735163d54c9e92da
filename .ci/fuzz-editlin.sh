# Sourced by .ci/run: the workspace's line tree agrees with plain string
# edits and rollbacks (editlin).
fuzz ./workspace FuzzTextAgrees 2000

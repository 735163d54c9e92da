# Sourced by .ci/run (which defines fuzz): the path rule every dialect's
# path parameters go through (schema.CheckPath): an accepted path never
# leaves the root once cleaned.
fuzz ./schema FuzzCheckPath 20000

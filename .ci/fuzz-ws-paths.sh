# Sourced by .ci/run (which defines fuzz): the path rule every dialect's
# path parameters go through (schema.CheckPath): an accepted path never
# leaves the root once cleaned; apply (parse → apply in a temp root) never
# writes outside the root.
fuzz ./schema FuzzCheckPath 20000
fuzz ./apply FuzzApply 2000

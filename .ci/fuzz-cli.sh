# Sourced by .ci/run: the directive comments of lint.Suppress (helper cli).
fuzz ./lint FuzzSuppress 20000

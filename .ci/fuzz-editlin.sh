# Sourced by .ci/run: a workspace edit replaces a FIND text that occurs
# once, as strings.Replace does, and refuses any other (editlin).
fuzz ./workspace FuzzEdit 2000

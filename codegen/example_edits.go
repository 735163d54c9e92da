package codegen

import "strings"

// The edit-format dialects (search-replace, udiff, apply-patch) have fixed
// grammars whose actions are the file operations themselves, so their
// examples are fixed documents showing every action once, in schema order,
// in the form the formats' own documentation uses.

func exampleSearchReplace(b *strings.Builder) {
	b.WriteString("src/example.py\n```python\n<<<<<<< SEARCH\ndef greet():\n    print(\"hi\")\n=======\ndef greet():\n    print(\"hello\")\n>>>>>>> REPLACE\n```\n")
}

func exampleUdiff(b *strings.Builder) {
	b.WriteString("```diff\n--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+first line\n+second line\n")
	b.WriteString("--- a/src/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-the only line\n")
	b.WriteString("--- a/src/example.py\n+++ b/src/example.py\n@@ -1,3 +1,3 @@\n def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n \n```\n")
}

func exampleApplyPatch(b *strings.Builder) {
	b.WriteString("*** Begin Patch\n*** Add File: src/new.txt\n+first line\n+second line\n*** Delete File: src/old.txt\n")
	b.WriteString("*** Update File: src/example.py\n@@ def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n*** End Patch\n")
}

package ast

import "slices"

// CodeInfo documents one diagnostic code: every Diagnostic's Code is one of
// the registry's (Codes), and docs/diagnostics.md is written from it.
type CodeInfo struct {
	// Code is the stable kebab-case identifier, printed as `[code]`.
	Code string
	// Severity is the code's usual severity; some rules report another one
	// in some cases (their docs section says when).
	Severity Severity
	// Area is the part of plangram that reports the code.
	Area Area
	// Meaning says in one line what the code reports.
	Meaning string
	// Doc is the docs page and section that explain the rule, relative to
	// docs/: "check.md#find-not-found".
	Doc string
	// Help is an optional paragraph on what the code means and how to fix
	// what it reports (SARIF's rule help); Meaning stands in when it is
	// empty.
	Help string
}

// Area is the part of plangram a diagnostic code belongs to; the areas
// order and title the sections of docs/diagnostics.md.
type Area uint8

// The areas, in the order docs/diagnostics.md lists them.
const (
	AreaInput Area = iota + 1
	AreaActs
	AreaPlan
	AreaBinding
	AreaSearchReplace
	AreaUdiff
	AreaApplyPatch
	AreaPaths
	AreaWorkspace
	AreaCheck
	AreaApply
	AreaFix
	AreaSchema
	AreaStream
	AreaLSP
)

var areaTitles = [...]string{
	AreaInput:         "Input encoding (every dialect)",
	AreaActs:          "Fenced acts",
	AreaPlan:          "Markdown plans",
	AreaBinding:       "Actions and their parameters (the schema)",
	AreaSearchReplace: "Search-replace",
	AreaUdiff:         "Unified diffs",
	AreaApplyPatch:    "Apply-patch",
	AreaPaths:         "Paths",
	AreaWorkspace:     "Workspace rules (check --root)",
	AreaCheck:         "Directive comments",
	AreaApply:         "plangram apply",
	AreaFix:           "Repairs (plangram fix)",
	AreaSchema:        "Schema files and tools registries",
	AreaStream:        "Streams (error events)",
	AreaLSP:           "The language server",
}

// String returns the area's title.
func (a Area) String() string {
	if int(a) < len(areaTitles) && areaTitles[a] != "" {
		return areaTitles[a]
	}
	return "unknown area"
}

// codes is the registry: one line per code, grouped by area. A code that
// several areas report (unknown-action, no-plan, empty-hunk) is listed
// once, in the area that explains it. A new code is one more line here;
// `go test ./ast -update` then rewrites docs/diagnostics.md, and
// cmd/plangram's TestCodesRegistered names every code the source emits or
// the docs name that is missing.
var codes = []CodeInfo{
	{Area: AreaInput, Code: "utf16-input", Severity: Error, Meaning: "the input is UTF-16 text, which plangram does not read", Doc: "acts.md#input-encoding"},
	{Area: AreaInput, Code: "utf32-input", Severity: Error, Meaning: "the input is UTF-32 text, which plangram does not read", Doc: "acts.md#input-encoding"},
	{Area: AreaInput, Code: "binary-input", Severity: Error, Meaning: "the input is a binary file, not text", Doc: "acts.md#input-encoding"},
	{Area: AreaInput, Code: "cr-line-endings", Severity: Error, Meaning: "the first line ends with a lone CR (old Mac line endings)", Doc: "acts.md#input-encoding"},
	{Area: AreaInput, Code: "lone-cr", Severity: Error, Meaning: "a lone CR hides a structural line", Doc: "acts.md#lone-crs"},
	{Area: AreaInput, Code: "invalid-utf8", Severity: Warning, Meaning: "a byte sequence is not UTF-8", Doc: "acts.md#input-encoding"},

	{Area: AreaActs, Code: "unclosed-fence", Severity: Error, Meaning: "a fence is never closed", Doc: "acts.md#diagnostics", Help: "A fenced block opened here has no closing fence of the same run, so it swallows the rest of the document. Close it with the same fence run that opened it."},
	{Area: AreaActs, Code: "improperly-nested-fence", Severity: Error, Meaning: "a block is closed by the fence meant for a nested block", Doc: "acts.md#improperly-nested-fences"},
	{Area: AreaActs, Code: "fence-trailing-text", Severity: Error, Meaning: "a line would close a block but for the text after its fence run", Doc: "acts.md#closing-fence-with-text"},
	{Area: AreaActs, Code: "block-before-act", Severity: Warning, Meaning: "a block comes before the first act", Doc: "acts.md#diagnostics", Help: "A fenced block before the first `act` block belongs to no action and is ignored."},
	{Area: AreaActs, Code: "other-fence-act", Severity: Warning, Meaning: "an act block is written with the fence character the document does not use", Doc: "acts.md#diagnostics"},
	{Area: AreaActs, Code: "near-act", Severity: Error, Meaning: "a block's info string starts with act but is not act", Doc: "acts.md#fences", Help: "Only a fenced block whose info string is exactly `act` is an act block. A block with `act python`, `act:` or `{act}` is an ordinary block (an argument of the action before it): the action it seems to name is not read. Write the fence line as ```act with nothing after it."},
	{Area: AreaActs, Code: "quoted-act", Severity: Warning, Meaning: "an act block is inside a block quote", Doc: "acts.md#fences", Help: "A line starting with `>` is quoted text: an act block written there is prose, and its action is not read. Remove the `>` markers if the action is meant to run."},
	{Area: AreaActs, Code: "hidden-act", Severity: Warning, Meaning: "an act block is inside an HTML comment", Doc: "acts.md#fences", Help: "An act block after a line starting with `<!--` and before the line holding `-->` is read as an action, but Markdown viewers hide the comment, so a reviewer may approve the plan without seeing it. Take the block out of the comment, or delete it."},
	{Area: AreaActs, Code: "no-plan", Severity: Info, Meaning: "the document holds no action at all", Doc: "acts.md#diagnostics"},
	{Area: AreaActs, Code: "looks-like-edit", Severity: Warning, Meaning: "the document looks like an edit that no edit format reads", Doc: "acts.md#diagnostics", Help: "Under --dialect auto, a document with no plan holds a unified-diff hunk with no `--- a/PATH` / `+++ b/PATH` header, or apply-patch file lines with no `*** Begin Patch`: nothing in it would be applied. Give the diff its file header (or the envelope its first line)."},
	{Area: AreaActs, Code: "empty-action-name", Severity: Error, Meaning: "an act block names no action", Doc: "acts.md#diagnostics", Help: "The first non-blank line of an `act` block must start with the action name."},
	{Area: AreaActs, Code: "unterminated-quote", Severity: Warning, Meaning: "an act line has an unterminated quote", Doc: "acts.md#diagnostics", Help: "Inline arguments are split like a shell would; an unterminated quote takes the rest of the line literally."},
	{Area: AreaActs, Code: "too-many-args", Severity: Error, Meaning: "an act block has more inline arguments than are read", Doc: "acts.md#bounded-output"},
	{Area: AreaActs, Code: "too-many-blocks", Severity: Error, Meaning: "an act block is followed by more argument blocks than are read", Doc: "acts.md#bounded-output"},
	{Area: AreaActs, Code: "too-many-blocks-in-a-row", Severity: Error, Meaning: "more blocks in a row than the grammar reads; the rest is prose", Doc: "acts.md#bounded-output"},
	{Area: AreaActs, Code: "parse-error", Severity: Error, Meaning: "internal parse error", Doc: "acts.md#diagnostics", Help: "The parser failed; please report the input."},

	{Area: AreaPlan, Code: "preamble", Severity: Warning, Meaning: "text before the plan's title", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "too-many-parts", Severity: Error, Meaning: "an action has more Markdown parts than are read", Doc: "plan.md#bounded-output"},
	{Area: AreaPlan, Code: "title-missing-space", Severity: Warning, Meaning: "a title without a space after its `#` (`#Title`)", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "missing-title", Severity: Error, Meaning: "no level-1 heading before the first section", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "missing-metadata", Severity: Error, Meaning: "no metadata list after the title", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "bad-metadata-item", Severity: Error, Meaning: "a metadata item is not `Key: value`", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "missing-rationale", Severity: Error, Meaning: "no Rationale section, or no code block after it", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "missing-memos-block", Severity: Error, Meaning: "a Memos section without its code block", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "bad-memo-line", Severity: Warning, Meaning: "a memo line without `[+]` or `[-]`", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "wrong-order", Severity: Error, Meaning: "a section comes after a later one, or an action before the Action Plan", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "duplicate-section", Severity: Error, Meaning: "a section is given twice", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "unknown-section", Severity: Error, Meaning: "a level-2 heading that is no plan section", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "missing-action-plan", Severity: Error, Meaning: "neither an Action Plan nor a Message section", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "plan-and-message", Severity: Error, Meaning: "both an Action Plan and a Message section, or a MESSAGE action", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "empty-action-plan", Severity: Error, Meaning: "an Action Plan section without actions", Doc: "plan.md#sections"},
	{Area: AreaPlan, Code: "wrong-heading-level", Severity: Error, Meaning: "an action heading at a level other than 3", Doc: "plan.md#actions"},
	{Area: AreaPlan, Code: "stray-paragraph", Severity: Error, Meaning: "a paragraph where the plan has no text", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "stray-heading", Severity: Error, Meaning: "a heading where the plan expects none", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "stray-list", Severity: Error, Meaning: "a list that is not the expected metadata", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "stray-block", Severity: Error, Meaning: "an extra code block, or one where the plan expects none", Doc: "plan.md#diagnostics-and-the-ast-diff"},
	{Area: AreaPlan, Code: "missing-block", Severity: Error, Meaning: "fewer code blocks than the action needs", Doc: "plan.md#actions"},
	{Area: AreaPlan, Code: "missing-pair", Severity: Error, Meaning: "an EDIT without any FIND / REPLACE pair", Doc: "plan.md#actions"},
	{Area: AreaPlan, Code: "unpaired-block", Severity: Error, Meaning: "a FIND without its REPLACE, or a REPLACE without its FIND", Doc: "plan.md#actions"},
	{Area: AreaPlan, Code: "empty-param", Severity: Error, Meaning: "a required value is empty", Doc: "plan.md#parameters"},
	{Area: AreaPlan, Code: "unknown-key", Severity: Error, Meaning: "a metadata key the action does not declare", Doc: "plan.md#parameters"},
	{Area: AreaPlan, Code: "duplicate-key", Severity: Error, Meaning: "a metadata key is given twice", Doc: "plan.md#parameters"},

	{Area: AreaBinding, Code: "unknown-action", Severity: Error, Meaning: "the action is not in the schema", Doc: "schema.md#unknown-actions", Help: "The action name is not declared by the dialect's schema; check the spelling (the message suggests the closest name)."},
	{Area: AreaBinding, Code: "wrong-arg-count", Severity: Error, Meaning: "wrong number of arguments", Doc: "acts.md#diagnostics", Help: "The action takes the parameters its schema declares; the message names them."},
	{Area: AreaBinding, Code: "inline-args-not-allowed", Severity: Error, Meaning: "the action takes block arguments only", Doc: "schema.md#argument-modes-acts", Help: "Give the arguments as fenced blocks after the act block."},
	{Area: AreaBinding, Code: "block-args-not-allowed", Severity: Error, Meaning: "the action takes inline arguments only", Doc: "schema.md#argument-modes-acts", Help: "Give the arguments on the act line."},
	{Area: AreaBinding, Code: "missing-param", Severity: Error, Meaning: "a required parameter has no value", Doc: "plan.md#parameters"},
	{Area: AreaBinding, Code: "bad-value", Severity: Error, Meaning: "a value does not fit its parameter's type", Doc: "schema.md#types"},

	{Area: AreaSearchReplace, Code: "missing-path", Severity: Error, Meaning: "a block names no file and no block before it did", Doc: "search-replace.md#diagnostics"},
	{Area: AreaSearchReplace, Code: "missing-divider", Severity: Error, Meaning: "a SEARCH section is not ended by `=======`", Doc: "search-replace.md#diagnostics"},
	{Area: AreaSearchReplace, Code: "missing-replace-marker", Severity: Error, Meaning: "a REPLACE section is not ended by `>>>>>>> REPLACE`", Doc: "search-replace.md#diagnostics"},
	{Area: AreaSearchReplace, Code: "stray-marker", Severity: Error, Meaning: "a divider or REPLACE marker outside any block", Doc: "search-replace.md#diagnostics"},
	{Area: AreaSearchReplace, Code: "malformed-marker", Severity: Warning, Meaning: "a line looks like a marker but is not one", Doc: "search-replace.md#diagnostics"},
	{Area: AreaSearchReplace, Code: "replace-ended-by-divider", Severity: Warning, Meaning: "a REPLACE section is ended by a second `=======`", Doc: "search-replace.md#diagnostics"},

	{Area: AreaUdiff, Code: "hunk-count-mismatch", Severity: Warning, Meaning: "a hunk header's line counts disagree with its body", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "hunk-without-line-numbers", Severity: Info, Meaning: "a hunk header without line numbers: the hunk is placed by its content", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "empty-hunk", Severity: Error, Meaning: "a hunk with no lines", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "stray-hunk", Severity: Error, Meaning: "a hunk with no file header before it", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "bad-diff-header", Severity: Error, Meaning: "a file header names no usable path", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "new-file-with-old-lines", Severity: Warning, Meaning: "a diff from `/dev/null` has context or removed lines", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "deleted-file-keeps-lines", Severity: Error, Meaning: "a diff to `/dev/null` has context or added lines", Doc: "udiff.md#diagnostics"},
	{Area: AreaUdiff, Code: "unsupported-diff", Severity: Error, Meaning: "a git header or body that plangram does not apply (copy, mode change, binary patch…)", Doc: "udiff.md#diagnostics"},

	{Area: AreaApplyPatch, Code: "missing-end-patch", Severity: Error, Meaning: "the patch has no `*** End Patch` line", Doc: "apply-patch.md#diagnostics"},
	{Area: AreaApplyPatch, Code: "bad-hunk-header", Severity: Error, Meaning: "a line inside a patch that is not a file operation header where one is expected", Doc: "apply-patch.md#diagnostics"},
	{Area: AreaApplyPatch, Code: "bad-hunk-line", Severity: Error, Meaning: "an Update File hunk line that starts with none of space, `-` and `+`", Doc: "apply-patch.md#diagnostics"},
	{Area: AreaApplyPatch, Code: "empty-update", Severity: Error, Meaning: "an Update File with no hunk", Doc: "apply-patch.md#diagnostics"},
	{Area: AreaApplyPatch, Code: "empty-path", Severity: Error, Meaning: "a file operation header with no path", Doc: "apply-patch.md#diagnostics"},
	{Area: AreaApplyPatch, Code: "empty-patch", Severity: Error, Meaning: "a `*** Begin Patch` … `*** End Patch` envelope with no file operation", Doc: "apply-patch.md#diagnostics"},

	{Area: AreaPaths, Code: "absolute-path", Severity: Error, Meaning: "a path or cwd is absolute", Doc: "check.md#absolute-path", Help: "Paths in a plan are relative to the project root so that the plan means the same thing on every machine. Remove the leading `/` (or drive, or `~`)."},
	{Area: AreaPaths, Code: "path-escapes-root", Severity: Error, Meaning: "a path or cwd leaves the project root", Doc: "check.md#path-escapes-root", Help: "After `..` components and symbolic links are resolved, the path must stay inside the project root. A scheme-like prefix (`ab://`) is an ordinary path component."},
	{Area: AreaPaths, Code: "bad-path", Severity: Error, Meaning: "a path is empty or contains a control character", Doc: "check.md#bad-path", Help: "A path must not be empty nor contain NUL, a line break, a tab or any other control character, nor an invisible formatting character (a zero-width space, a bidirectional override, a soft hyphen…) that makes it display as another name."},
	{Area: AreaPaths, Code: "url-not-allowed", Severity: Error, Meaning: "a path is a URL", Doc: "check.md#url-not-allowed", Help: "A path parameter names a file relative to the project root; `https://host/a` or `file:///etc/passwd` (a scheme and `://`) is not one. Download the file with a command, or write the project path."},
	{Area: AreaPaths, Code: "not-a-file", Severity: Error, Meaning: "a file action names a directory", Doc: "check.md#not-a-file", Help: "The path names a directory; file actions need a file path."},
	{Area: AreaPaths, Code: "path-whitespace", Severity: Warning, Meaning: "a path value has white space around it on its line, which is dropped", Doc: "schema.md#types"},
	{Area: AreaPaths, Code: "non-portable-path", Severity: Warning, Meaning: "a path holds a name that Windows cannot hold", Doc: "check.md#non-portable-path"},
	{Area: AreaPaths, Code: "case-collision", Severity: Warning, Meaning: "two paths of the plan differ only in letter case or Unicode normalization", Doc: "check.md#case-collision"},

	{Area: AreaWorkspace, Code: "find-not-found", Severity: Error, Meaning: "FIND / old text is not in the target file", Doc: "check.md#find-not-found", Help: "The text an EDIT's FIND block (or patch_file's old argument) looks for must occur in the file byte for byte, whitespace and line endings included. The diagnostic shows the closest region of the file and a unified diff from the FIND text to it, and says when the difference is only whitespace (indentation, tabs against spaces, trailing blanks, CRLF). Copy the exact text from the file."},
	{Area: AreaWorkspace, Code: "find-ambiguous", Severity: Error, Meaning: "FIND / old text occurs more than once", Doc: "check.md#find-ambiguous", Help: "An edit replaces exactly one occurrence: when the FIND text occurs several times the executor cannot tell which one is meant. Include more surrounding lines to make it unique, or set `Match All: true` to replace every occurrence."},
	{Area: AreaWorkspace, Code: "find-empty", Severity: Error, Meaning: "FIND / old text is empty", Doc: "check.md#find-empty", Help: "An empty FIND text matches everywhere. Put the exact text to replace in the FIND block."},
	{Area: AreaWorkspace, Code: "file-not-found", Severity: Error, Meaning: "the file to read, edit, delete or move does not exist", Doc: "check.md#file-not-found", Help: "Neither the workspace nor an earlier action of the plan provides the file. Check the path (it is relative to the project root), or CREATE the file first. After an EXECUTE or run_command, which may create files the checker cannot see, this is a warning."},
	{Area: AreaWorkspace, Code: "file-exists", Severity: Warning, Meaning: "CREATE / write_file replaces an existing file", Doc: "check.md#file-exists", Help: "The file already exists in the workspace, or an earlier action created it. Set `Overwrite: true` when replacing it is intended, or EDIT it instead."},
	{Area: AreaWorkspace, Code: "already-applied", Severity: Warning, Meaning: "the edit's result is already in the file", Doc: "check.md#already-applied", Help: "The edit was applied before: its REPLACE text stands where its FIND text would match (or the FIND text is gone and the REPLACE text is there), a diff hunk or apply_patch chunk applies in reverse, or a CREATE, write_file or add_file names a file that already holds its content. Applying it again would change what was already changed (code inserted twice), so it is not made again. `plangram apply` refuses a plan part of which is already applied, and changes nothing when every action is. An edit of a file an earlier action of the same document changed is not looked at this way."},
	{Area: AreaWorkspace, Code: "not-a-directory", Severity: Error, Meaning: "a path goes through a file as if it were a directory", Doc: "check.md#not-a-directory", Help: "`a/b` needs `a` to be a directory, but `a` is a file in the workspace, a file an earlier action creates, or a file an earlier action deletes or moves away (a file is not replaced by a directory within one plan: apply writes all files at once). Choose another path, or split the plan in two."},
	{Area: AreaWorkspace, Code: "path-unusable", Severity: Error, Meaning: "the operating system cannot use the path", Doc: "check.md#path-unusable", Help: "Looking the path up fails for a reason no plan can change: a component longer than the file system allows (ENAMETOOLONG), a loop of symbolic links (ELOOP). The message gives the system's error."},
	{Area: AreaWorkspace, Code: "beyond-symlink", Severity: Error, Meaning: "a path goes through a symbolic link", Doc: "check.md#beyond-symlink", Help: "A directory on the path is a symbolic link, or an action that writes, appends to or edits a file names a symbolic link (or the place of one the plan deleted). As `git apply` refuses a path \"beyond a symbolic link\", apply never follows one, so that no link in the workspace can lead a write into .git or out of the root. Write the path the link stands for. Deleting or moving a link acts on the link itself, and a read follows a link that stays inside the root."},
	{Area: AreaWorkspace, Code: "name-too-long", Severity: Error, Meaning: "a name on the path is longer than the file system allows", Doc: "check.md#name-too-long", Help: "A component of the path is longer than the root's file system allows for one name (255 bytes on ext4, XFS, APFS, NTFS; the limit is asked of the file system where it can be): no file can be created with it, so apply would fail. Shorten the name."},
	{Area: AreaWorkspace, Code: "move-onto-itself", Severity: Warning, Meaning: "a move's destination is its source", Doc: "check.md#move-onto-itself", Help: "The destination names the same file as the source (`a.txt` and `./a.txt`, or through a symbolic link inside the root): the move does nothing. Check the destination."},
	{Area: AreaWorkspace, Code: "file-unreadable", Severity: Warning, Meaning: "a file cannot be checked", Doc: "check.md#file-unreadable", Help: "The file exists but could not be read (permissions) or is larger than the checker's limit; the rules that need its content were skipped for it."},
	{Area: AreaWorkspace, Code: "hunk-line-drift", Severity: Info, Meaning: "a udiff hunk's header line number is not where its context is", Doc: "check.md#hunk-line-drift", Help: "Models often get hunk header line numbers wrong. plangram places a hunk by its context and removed lines (which must occur exactly once after the previous hunk) and notes where the header was off; fix the numbers if another tool will apply the diff."},
	{Area: AreaWorkspace, Code: "hunk-placed-by-line-number", Severity: Info, Meaning: "a udiff hunk whose lines occur several times is placed by its header's line number", Doc: "check.md#hunk-placed-by-line-number", Help: "When a hunk's context and removed lines occur several times after the previous hunk and one occurrence starts exactly at the line the hunk header names, the hunk goes there, as git apply and GNU patch place it."},
	{Area: AreaWorkspace, Code: "anchor-whitespace", Severity: Info, Meaning: "an apply-patch @@ line matches only with white space ignored", Doc: "check.md#anchor-whitespace", Help: "The `@@ line` a hunk must come after is found only when white space around it is ignored (codex's rule for it). It is an anchor, nothing of it is replaced; fix its indentation if another tool will apply the patch."},
	{Area: AreaWorkspace, Code: "bad-replace-diff", Severity: Error, Meaning: "a replace_in_file diff is not one or more SEARCH/REPLACE blocks", Doc: "check.md#bad-replace-diff", Help: "Cline's replace_in_file (`--dialect tools`) gives its edits as blocks of a `------- SEARCH` line (or `<<<<<<< SEARCH`), the lines to find, a `=======` line, their replacement and a `+++++++ REPLACE` line (or `>>>>>>> REPLACE`). A diff without a block, a block that lacks its separator or end marker, or text outside the blocks is not applied at all: the file is left as it is."},
	{Area: AreaWorkspace, Code: "crlf-kept", Severity: Info, Meaning: "an LF edit of a CRLF file keeps the file's CRLF line endings", Doc: "check.md#crlf-kept", Help: "The file ends every line with CRLF and the edit has no CR: the edit is matched line by line and written with CRLF line endings."},
	{Area: AreaWorkspace, Code: "delete-content-differs", Severity: Error, Meaning: "a udiff deletion's removed lines are not the file's content", Doc: "check.md#delete-content-differs", Help: "A diff to `/dev/null` lists the lines it removes; as `git apply` requires, they must be the whole file, byte for byte. The diagnostic names the first line that differs (or the lines the file has beyond them), says when the difference is only white space, and carries a diff. An LF diff of a CRLF file matches line by line (`crlf-kept`)."},
	{Area: AreaWorkspace, Code: "read-only-file", Severity: Error, Meaning: "the plan changes a read-only file", Doc: "check.md#read-only-file", Help: "The file's mode lacks the owner's write bit (0444, for example): `plangram apply` refuses to change it, as `fmt -w` and `fix -w` do, also when run as root. Make it writable (`chmod u+w`) if the change is meant, or leave the file alone. Deleting it or moving it away is fine. The diagnostic is at the last action that changes it."},
	{Area: AreaWorkspace, Code: "workspace-root", Severity: Error, Meaning: "the workspace root cannot be used", Doc: "check.md#workspace-root", Help: "The --root directory does not exist or is not a directory."},
	{Area: AreaWorkspace, Code: "work-budget", Severity: Error, Meaning: "the workspace check scanned or copied more bytes than the plan and the files it read pay for", Doc: "check.md#work-budget", Help: "The simulation of a plan is given a budget of bytes to scan and copy: 128 per byte of the plan and of the files it reads, plus 1 GiB. Hundreds of edits of a 1 MB file stay far below it; hundreds of thousands of hunks editing one large file reach it. The workspace rules stop at the action where it was spent, and the check fails: split the plan, or edit the file in fewer, larger edits."},

	{Area: AreaCheck, Code: "bad-directive", Severity: Warning, Meaning: "a `plangram-disable` directive comment names no rule", Doc: "check.md#silencing-rules"},

	{Area: AreaApply, Code: "nothing-to-apply", Severity: Error, Meaning: "no input has an action that changes a file", Doc: "apply.md#nothing-to-apply"},
	{Area: AreaApply, Code: "cannot-apply", Severity: Error, Meaning: "a file change the check allowed that apply cannot carry out", Doc: "apply.md#codes"},
	{Area: AreaApply, Code: "command-not-run", Severity: Info, Meaning: "an action that runs a command: apply lists it and never runs it", Doc: "apply.md#codes"},

	{Area: AreaFix, Code: "fixed-nested-fence", Severity: Warning, Meaning: "fix lengthened the fences of an improperly nested block", Doc: "plan.md#plangram-fix"},
	{Area: AreaFix, Code: "fixed-fence-trailing-text", Severity: Warning, Meaning: "fix removed the text after a closing fence run", Doc: "plan.md#plangram-fix"},
	{Area: AreaFix, Code: "fixed-title-space", Severity: Warning, Meaning: "fix added the space after `#` in the title", Doc: "plan.md#plangram-fix"},
	{Area: AreaFix, Code: "fixed-heading-level", Severity: Warning, Meaning: "fix made an action heading a heading 3", Doc: "plan.md#plangram-fix"},
	{Area: AreaFix, Code: "fixed-trailing-blank-lines", Severity: Warning, Meaning: "fix removed whitespace-only lines at the end of the document", Doc: "plan.md#plangram-fix"},
	{Area: AreaFix, Code: "fix-work-budget", Severity: Warning, Meaning: "fix stopped repairing fences: the repairs scanned or copied more bytes than the input pays for", Doc: "plan.md#plangram-fix", Help: "The fence repairs of a plan or an acts document are given a budget of bytes to scan and copy: 128 per byte of the input, plus 256 MiB. Hundreds of repairs of a 1 MB plan stay far below it; hundreds of thousands of broken fences reach it. The repairs stop at the line where it was spent: the output holds the repairs made before it and leaves the fences after it as they are."},

	{Area: AreaSchema, Code: "bad-schema", Severity: Error, Meaning: "an error in a schema file", Doc: "schema.md#errors-in-a-schema-file"},
	{Area: AreaSchema, Code: "bad-tools", Severity: Error, Meaning: "a tools registry (`--tools`) that cannot be converted to a schema", Doc: "schema.md#tools-registries---tools-file"},
	{Area: AreaSchema, Code: "unchecked", Severity: Warning, Meaning: "a part of a tools registry that the converted schema does not check", Doc: "schema.md#tools-registries---tools-file"},

	{Area: AreaStream, Code: "unterminated", Severity: Error, Meaning: "a thinking block or a call is still open at the end of the stream", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "too-large", Severity: Error, Meaning: "a streamed call, or a document or didChange message the language server is given, is larger than its limit", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "unknown-param", Severity: Error, Meaning: "a parameter the tool does not declare", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "duplicate-param", Severity: Error, Meaning: "a parameter is given twice (the first is kept)", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "unclosed-param", Severity: Error, Meaning: "a parameter is ended by its call's closing tag", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "stray-text", Severity: Error, Meaning: "text between a call's parameters", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "unknown-tool", Severity: Error, Meaning: "a call of a tool the registry does not know", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "raw-close", Severity: Warning, Meaning: "a raw parameter is ended at its last closing tag by its call's closing tag", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "cut-tag", Severity: Error, Meaning: "the stream ends inside a call's opening tag", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "bad-json", Severity: Error, Meaning: "JSON arguments that are not valid JSON or not an object, or text after them", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "no-name", Severity: Error, Meaning: "a JSON call that names no tool", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "bad-python", Severity: Error, Meaning: "a pythonic call that is not `NAME(key=literal, …)`", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "bad-event", Severity: Error, Meaning: "a provider API event whose data is not JSON, or a call without a name", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "provider-error", Severity: Error, Meaning: "the provider API sent an error in the stream", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "orphan-delta", Severity: Error, Meaning: "an argument fragment of a call the stream never started", Doc: "stream.md#error-kinds"},
	{Area: AreaStream, Code: "not-utf8-openai", Severity: Warning, Meaning: "the OpenAI chunk output got text that is not UTF-8, written as U+FFFD", Doc: "stream.md#output-for-openai-clients---format-openai"},

	{Area: AreaLSP, Code: "internal-error", Severity: Error, Meaning: "checking the document failed inside the language server; please report it", Doc: "editors.md#robustness"},
}

// Codes returns the registry of every diagnostic code plangram reports,
// grouped by area. The slice is the caller's.
func Codes() []CodeInfo {
	return slices.Clone(codes)
}

// LookupCode returns the registry's entry for code, and whether there is
// one.
func LookupCode(code string) (CodeInfo, bool) {
	if i := slices.IndexFunc(codes, func(c CodeInfo) bool { return c.Code == code }); i >= 0 {
		return codes[i], true
	}
	return CodeInfo{}, false
}

package lsp

// The methods a client may send a server in LSP 3.17 (and the 3.18
// additions textDocument/inlineCompletion, textDocument/rangesFormatting
// and workspace/textDocumentContent), by the specification's method
// names. The server implements a few (server.dispatch); a request of the
// others is answered MethodNotFound "not implemented" and a notification
// of the others is ignored, as a method nobody sends; a method not listed
// is unknown (robust).
var (
	// clientNotifications are the notifications.
	clientNotifications = []string{
		"$/cancelRequest", "$/progress", "$/setTrace", "exit", "initialized",
		"notebookDocument/didChange", "notebookDocument/didClose", "notebookDocument/didOpen", "notebookDocument/didSave",
		"textDocument/didChange", "textDocument/didClose", "textDocument/didOpen", "textDocument/didSave", "textDocument/willSave",
		"window/workDoneProgress/cancel",
		"workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders",
		"workspace/didCreateFiles", "workspace/didDeleteFiles", "workspace/didRenameFiles",
	}
	// clientRequests are the requests.
	clientRequests = []string{
		"initialize", "shutdown",
		"callHierarchy/incomingCalls", "callHierarchy/outgoingCalls",
		"codeAction/resolve", "codeLens/resolve", "completionItem/resolve", "documentLink/resolve", "inlayHint/resolve",
		"textDocument/codeAction", "textDocument/codeLens", "textDocument/colorPresentation", "textDocument/completion",
		"textDocument/declaration", "textDocument/definition", "textDocument/diagnostic", "textDocument/documentColor",
		"textDocument/documentHighlight", "textDocument/documentLink", "textDocument/documentSymbol",
		"textDocument/foldingRange", "textDocument/formatting", "textDocument/hover", "textDocument/implementation",
		"textDocument/inlayHint", "textDocument/inlineCompletion", "textDocument/inlineValue",
		"textDocument/linkedEditingRange", "textDocument/moniker", "textDocument/onTypeFormatting",
		"textDocument/prepareCallHierarchy", "textDocument/prepareRename", "textDocument/prepareTypeHierarchy",
		"textDocument/rangeFormatting", "textDocument/rangesFormatting", "textDocument/references", "textDocument/rename",
		"textDocument/selectionRange", "textDocument/semanticTokens/full", "textDocument/semanticTokens/full/delta",
		"textDocument/semanticTokens/range", "textDocument/signatureHelp", "textDocument/typeDefinition",
		"textDocument/willSaveWaitUntil", "typeHierarchy/subtypes", "typeHierarchy/supertypes",
		"workspace/diagnostic", "workspace/executeCommand", "workspace/symbol", "workspaceSymbol/resolve",
		"workspace/textDocumentContent", "workspace/willCreateFiles", "workspace/willDeleteFiles", "workspace/willRenameFiles",
	}
)

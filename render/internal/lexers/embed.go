package lexers

import "embed"

// definitions are chroma's XML lexer definitions for the set (read-only).
//
//go:embed xml/*.xml
var definitions embed.FS

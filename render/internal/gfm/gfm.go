// Package gfm is goldmark's GitHub Flavored Markdown extension (linkify,
// tables, strikethrough, task lists), copied from goldmark v1.8.7 so that
// plangram does not link goldmark's extension package: its initialiser
// compiles five regular expressions (two with a bounded repeat of 256,
// which grows the stack of the starting goroutine) on every start of
// every plangram command, about 6 ms of CPU and 260 page faults, although
// only render uses them. Here they are compiled when a page is rendered.
// The nodes are goldmark's own (github.com/yuin/goldmark/extension/ast),
// and TestSameAsGoldmark pins the HTML to goldmark's extension.GFM.
package gfm

// Copied from goldmark v1.8.7, extension/gfm.go (MIT licence, see
// COPYING).

import (
	"github.com/yuin/goldmark"
)

type gfm struct {
}

// GFM is an extension that provides Github Flavored markdown functionalities.
var GFM = &gfm{}

func (e *gfm) Extend(m goldmark.Markdown) {
	Linkify.Extend(m)
	Table.Extend(m)
	Strikethrough.Extend(m)
	TaskList.Extend(m)
}

package grammar

// The streaming check of a plan (PlanParser.parseEach with each set, which
// Parse uses for Options.OnAction): the outline checks the first Action
// Plan section as it reads it, binding each action as soon as the heading
// after it (or the end of the section) is read, handing it over and
// letting go of its nodes (the AST view keeps what it may show of them,
// see viewRegion). Only this section streams: it is where a plan's size
// is. The checks that need the whole outline (missing and unknown
// sections, actions outside the Action Plan, the Message) run at the end
// over what the outline kept, as they do for the whole tree, in the same
// order, so the diagnostics are the same (TestPlanStreamSameAsTree).
//
// The section streams when nothing before it was read as an action (no
// heading 3, no action heading at level 2, no Message, no Action Plan
// section before it): such actions are bound after the Action Plan's, and
// the actions are handed over in source order.

// streamPart is called when the heading head of an action of the streamed
// section has been read: the action before it, prev, is complete (or,
// with prev nil, the section's intro).
func (b *planBuilder) streamPart(prev *ppart, head *pnode) {
	if prev == nil {
		b.region.at = head.idx
		b.streamIntro()
		return
	}
	b.bindStreamed(prev)
	b.release(head)
}

// endStream ends the streamed section at the heading 2 next (nil at the
// end of the input); cur is the action being read, if any.
func (b *planBuilder) endStream(cur *ppart, next *pnode) {
	if cur == nil {
		b.streamIntro()
	} else {
		b.bindStreamed(cur)
		b.release(next)
	}
	b.flushRing() // the region's last nodes: context for a flagged node after it
	// Without actions the section is empty, unless an action heading at
	// the wrong level follows it: check decides, once it has read them.
	b.emptyStream = b.streamed == 0
}

// streamIntro checks the streamed section's text before its first heading
// 3, as actionPlan does: an action heading at another level there starts
// an action; anything else is stray.
func (b *planBuilder) streamIntro() {
	intro, parts := b.splitIntro(b.streamSec)
	for _, n := range intro {
		b.stray(n, expectAction)
	}
	for _, p := range parts {
		b.bindOne(p)
	}
}

// bindStreamed binds the complete action p (split where an action heading
// at another level starts another one, as actionPlan does).
func (b *planBuilder) bindStreamed(p *ppart) {
	for _, q := range b.split(nil, p) {
		b.bindOne(q)
	}
	*p = ppart{}
}

// bindOne binds one action and hands it over. Cancellation is checked
// every 256 actions, as actionPlan does; once cancelled, the remaining
// actions are skipped (Parse returns the context's error).
func (b *planBuilder) bindOne(p *ppart) {
	b.streamed++
	if b.streamed%256 == 0 && b.ctx.Err() != nil {
		b.cancelled = true
	}
	if b.cancelled {
		return
	}
	k := len(b.doc.Actions)
	b.part(p)
	for _, a := range b.doc.Actions[k:] {
		setActionBase64(a)
		b.each(a)
	}
	clear(b.doc.Actions[k:])
	b.doc.Actions = b.doc.Actions[:k]
	// The action's entries are not used past its binding (its params
	// hold strings, not entries): the next action's take their place.
	b.entrySlab.reuse()
}

// release lets go of the nodes of the streamed section's actions bound so
// far: those from the region's start up to keep, the heading read after
// them (nil at the end of the section without one). Their marks are
// final: each visible one goes to the AST view's region, and each block
// no action took to the document's blocks, as finish does for the nodes
// kept.
func (b *planBuilder) release(keep *pnode) {
	r := &b.region
	m := len(b.nodes)
	if keep != nil {
		m--
	}
	for _, n := range b.nodes[r.at:m] {
		if n.kind == kFence && !n.placed {
			b.doc.Blocks = append(b.doc.Blocks, n.block)
		}
		if n.kind == kBlank || !b.regionAdd(n) {
			n.drop()
		}
	}
	clear(b.nodes[r.at:])
	b.nodes = b.nodes[:r.at]
	if keep != nil {
		keep.idx = r.at
		b.nodes = append(b.nodes, keep)
	}
}

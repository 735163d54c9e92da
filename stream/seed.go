package stream

// The markup of ByteDance's Seed-OSS: Qwen3-Coder's <function=…> calls in
// a <seed:tool_call> wrapper, and <seed:think> reasoning blocks.
const (
	seedOpen  = "<seed:tool_call>"
	seedClose = "</seed:tool_call>"
	seedThink = "seed:think"
)

// SeedOSS registers the seed-oss syntax (Seed-OSS-36B's chat template):
// <seed:tool_call><function=NAME><parameter=P>value</parameter>…
// </function></seed:tool_call>, read as qwen3-coder reads its calls (a
// value is raw text typed by the schema, less one line ending at each
// edge; a <function=…> outside the wrapper is a call too), with
// <seed:think>…</seed:think> as a thinking block besides <think> and
// <thinking> (unless Options.ThinkingTags names others).
func (registry) SeedOSS() *Syntax {
	s := xmlSyntax("seed-oss", "<seed:tool_call><function=NAME><parameter=P>value</parameter></function></seed:tool_call>",
		functionForm(seedOpen, seedClose), staticMarkers(seedOpen))
	open := s.open
	s.open = func(c *config) (scanner, error) {
		if c.opts.ThinkingTags == nil {
			c.opts.ThinkingTags = []string{seedThink, "thinking", "think"}
		}
		return open(c)
	}
	return s
}

package workspace

// entry is the checker's state of one path it looked at: what was on disk
// and what the actions so far made of it.
type entry struct {
	rel  string
	disk *vfile // what was on disk (nil: not looked at); never changed
	cur  *vfile // the current state (nil: not looked at)
	// below counts the files below this directory that exist because of
	// an earlier action.
	below int
}

// find returns the entry of path rel, nil when there is none. Looking a
// path up hashes it: the bytes are charged to the work budget.
func (c *checker) find(rel string) *entry {
	c.work.spend(len(rel))
	return c.o[rel]
}

// intern returns the entry of path rel, made when there is none. A new
// entry is charged entryCost to the work budget: it holds memory and
// took a look at the disk.
func (c *checker) intern(rel string) *entry {
	if e := c.find(rel); e != nil {
		return e
	}
	c.work.spend(entryCost)
	e := &entry{rel: rel}
	c.o[rel] = e
	return e
}

// created reports whether e's current state is a file an action made
// (what set counts in below).
func (e *entry) created() bool {
	f := e.cur
	return f != nil && f.exists && f.by != nil && !f.dir
}

// isDir reports whether rel is known to be a directory now (what
// c.file(rel).dir says), without looking at the disk.
func (c *checker) isDir(rel string) bool {
	e := c.find(rel)
	if e == nil || e.cur == nil {
		return false
	}
	return e.cur.dir || !e.cur.exists && e.cur.unusable == "" && e.below > 0
}

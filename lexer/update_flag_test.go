package lexer

// goldie registers the -update flag that rewrites golden files; importing it
// here lets the documented `go test ./... -update` run in this package too,
// which has no golden files of its own.
import _ "github.com/sebdah/goldie/v2"

// Package testkit holds, in its subpackages, what the tests and benchmarks
// of several packages share: generated corpora (corpus), the goldmark
// baseline of the benchmarks (benchutil) and a JSON Schema validator
// (schematest). Only tests (and the benchmark baseline program under
// cmd/plangram/testdata) import them, so none is linked into the library or
// the plangram command; the packages beside testkit in internal/ are the
// runtime's.
package testkit

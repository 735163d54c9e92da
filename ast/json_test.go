package ast_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// checkSame compares the direct writer (indented and compact, and the
// MarshalJSON methods) with the former encoder path.
func checkSame(t *testing.T, name string, doc *ast.Document) {
	t.Helper()
	want, err := ast.LegacyJSON(doc)
	if err != nil {
		t.Fatalf("%s: legacy: %v", name, err)
	}
	var got bytes.Buffer
	if err := ast.WriteJSON(&got, doc, false); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("%s: WriteJSON differs from the encoder path:\n%s", name, firstDiff(got.Bytes(), want))
	}
	if j, err := ast.JSON(doc); err != nil || !bytes.Equal(j, want) {
		t.Errorf("%s: ast.JSON differs from the encoder path (err %v):\n%s", name, err, firstDiff(j, want))
	}
	var wantCompact bytes.Buffer
	if err := json.Compact(&wantCompact, want); err != nil {
		t.Fatal(err)
	}
	wantCompact.WriteByte('\n') // as the CLI's --compact prints it
	got.Reset()
	if err := ast.WriteJSON(&got, doc, true); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), wantCompact.Bytes()) {
		t.Errorf("%s: compact WriteJSON differs:\n%s", name, firstDiff(got.Bytes(), wantCompact.Bytes()))
	}
	m, err := json.Marshal(doc) // through MarshalJSON, HTML-escaped by the outer encoder
	if err != nil {
		t.Fatal(err)
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, bytes.TrimSuffix(wantCompact.Bytes(), []byte("\n")))
	if !bytes.Equal(m, esc.Bytes()) {
		t.Errorf("%s: json.Marshal differs:\n%s", name, firstDiff(m, esc.Bytes()))
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return "got:  ..." + string(a[lo:min(len(a), i+80)]) + "\nwant: ..." + string(b[lo:min(len(b), i+80)])
}

// TestWriteJSONGoldenCorpus parses every document of the golden corpus in
// its dialect (the directory's name, else auto) and compares the writer's
// output with the encoder path's.
func TestWriteJSONGoldenCorpus(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../golden", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dialect := grammar.DialectAuto
		if dir := strings.Split(filepath.ToSlash(path), "/")[2]; slices.Contains(grammar.Dialects(), dir) {
			dialect = dir
		}
		doc, err := grammar.Parse(context.Background(), path, src, grammar.Options{Dialect: dialect})
		if err != nil {
			return err
		}
		checkSame(t, path, doc)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d golden documents found", n)
	}
}

// TestWriteJSONEveryField fills every field of every ast type (by
// reflection, so a field added later is filled too) and compares: a field
// the writer misses fails here. It also checks the empty document and nil
// elements.
func TestWriteJSONEveryField(t *testing.T) {
	doc := &ast.Document{}
	fill(reflect.ValueOf(doc).Elem(), 0)
	checkSame(t, "every field", doc)
	checkSame(t, "empty", &ast.Document{})
	checkSame(t, "empty action", &ast.Document{Actions: []*ast.Action{{}, nil}, Prose: []*ast.Prose{nil}, Memos: []*ast.Memo{nil}})
	checkSame(t, "empty lists", &ast.Document{Actions: []*ast.Action{{Args: []string{}, Blocks: []*ast.Block{}, Params: ast.Params{}}}, Diagnostics: []*ast.Diagnostic{{Severity: 7}}})
}

// values are the param values of the filled document: every dynamic type a
// dialect stores, and strings with every escape.
var values = []any{
	"a<b>&c\"d\\e\n\r\t\b\f\x00\x1f\x7f é \u2028\u2029 \xff\xfe end",
	true, false, int64(-42), 7, 3.25, 1e21, 1e-7, -0.0, float64(1 << 53),
	[]string{"x", "<y>"}, []string(nil), []any{"a", int64(1), nil, []any{}, map[string]any{}},
	map[string]any{"z": 1.5, "a": []string{"q"}, "m": map[string]any{"k": nil}},
	nil, json.Number("12.50"), json.RawMessage(`{"raw": [1, 2]}`),
	struct {
		A string `json:"a"`
		B []int  `json:"b,omitempty"`
	}{"s<", []int{1, 2}},
	ast.Params{{Name: "inner", Value: "v"}},
}

func fill(v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[ast.Params]() {
		ps := ast.Params{}
		for i, x := range values {
			ps = append(ps, ast.Param{Name: "p" + string(rune('a'+i)) + "<&>", Value: x, Span: &ast.Span{}})
		}
		v.Set(reflect.ValueOf(ps))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(values[0].(string))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(depth*1000 + 1 + v.NumMethod()))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte("bytes\xff<"))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	case reflect.Interface:
		v.Set(reflect.ValueOf("any"))
	}
}

// TestWriteJSONErrors checks that a value encoding/json refuses fails the
// writer too, naming the parameter.
func TestWriteJSONErrors(t *testing.T) {
	doc := &ast.Document{Actions: []*ast.Action{{Params: ast.Params{{Name: "bad", Value: math.NaN()}}}}}
	if _, err := ast.LegacyJSON(doc); err == nil {
		t.Fatal("legacy path accepts NaN")
	}
	err := ast.WriteJSON(&bytes.Buffer{}, doc, false)
	if err == nil || !strings.Contains(err.Error(), `param "bad"`) {
		t.Fatalf("WriteJSON error = %v, want one naming param \"bad\"", err)
	}
	if _, err := ast.JSON(doc); err == nil {
		t.Fatal("ast.JSON accepts NaN")
	}
}

package stream

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
)

// legacyEvent and legacyMarshal are the former Event.MarshalJSON (an
// encoding/json encoder over this struct), kept as the reference the direct
// writer must match byte for byte.
type legacyEvent struct {
	Type      string          `json:"type"`
	Choice    int             `json:"choice,omitempty"`
	ID        int             `json:"id,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	CallIDB64 string          `json:"call_id_base64,omitempty"`
	Name      string          `json:"name,omitempty"`
	NameB64   string          `json:"name_base64,omitempty"`
	Param     string          `json:"param,omitempty"`
	ParamB64  string          `json:"param_base64,omitempty"`
	Text      *string         `json:"text,omitempty"`
	TextB64   string          `json:"text_base64,omitempty"`
	Params    *ast.Params     `json:"params,omitempty"`
	ParamsB   json.RawMessage `json:"params_base64,omitempty"`
	Severity  *ast.Severity   `json:"severity,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	Message   string          `json:"message,omitempty"`
	Raw       string          `json:"raw,omitempty"`
	RawB64    string          `json:"raw_base64,omitempty"`
	Syntax    string          `json:"syntax,omitempty"`
	Span      ast.Span        `json:"span"`
}

func legacyMarshal(e Event) ([]byte, error) {
	j := legacyEvent{Type: e.Type.String(), Choice: e.Choice, ID: e.ID, CallID: e.CallID, Name: e.Name, Param: e.Param, Kind: e.Kind, Message: e.Message, Raw: e.Raw, Syntax: e.Syntax, Span: e.Span}
	switch e.Type {
	case Text:
		j.Text = &e.Text
		if e.Raw == e.Text {
			j.Raw = ""
		}
	case Thinking, ParamDelta:
		j.Text = &e.Text
	case Error:
		j.Severity = &e.Severity
		if e.Severity != ast.Error {
			j.Type = "diagnostic"
		}
		if e.Params != nil {
			j.Params = &e.Params
		}
	case ToolCall, Hunk:
		j.Params = &e.Params
	case ToolCallStart:
		if e.Params != nil {
			j.Params = &e.Params
		}
	}
	// Exact bytes of strings that are not valid UTF-8 (docs/json.md).
	b64 := func(s string) string {
		if utf8.ValidString(s) {
			return ""
		}
		return base64.StdEncoding.EncodeToString([]byte(s))
	}
	j.NameB64, j.ParamB64, j.RawB64, j.CallIDB64 = b64(j.Name), b64(j.Param), b64(j.Raw), b64(j.CallID)
	if j.Text != nil {
		j.TextB64 = b64(*j.Text)
	}
	if j.Params != nil && ast.HasInvalidUTF8(*j.Params) {
		w := &jsonw.W{}
		w.BeginObject()
		ast.WriteParamsBase64(w, "params", *j.Params)
		w.EndObject()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(w.B, &m); err != nil {
			return nil, err
		}
		j.ParamsB = m["params_base64"]
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

func checkEventJSON(t *testing.T, name string, e Event) {
	t.Helper()
	want, err := legacyMarshal(e)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got, err := e.AppendJSON(nil)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: AppendJSON (err %v)\n got: %s\nwant: %s", name, err, got, want)
	}
	if m, err := json.Marshal(e); err != nil || !bytes.Equal(m, htmlEscape(want)) {
		t.Errorf("%s: json.Marshal (err %v)\n got: %s\nwant: %s", name, err, m, htmlEscape(want))
	}
}

func htmlEscape(b []byte) []byte {
	var out bytes.Buffer
	json.HTMLEscape(&out, b)
	return out.Bytes()
}

// TestEventJSONGolden compares the direct writer with the former encoder on
// every event of the golden stream corpus, fed as TestGolden feeds it.
func TestEventJSONGolden(t *testing.T) {
	files, err := goldenInputs("../golden/stream")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opts, cuts := goldenFeed(name, in)
		for i, e := range collect(t, opts, in, cuts) {
			checkEventJSON(t, name+"#"+string(rune('0'+i%10)), e)
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d golden events", n)
	}
}

// TestEventJSONEveryField sets every field of an Event, for every type, and
// compares; it fails when Event gains a field that neither writer knows
// (add it to both and to the list here).
func TestEventJSONEveryField(t *testing.T) {
	var fields []string
	for f := range reflect.TypeFor[Event]().Fields() {
		fields = append(fields, f.Name)
	}
	known := []string{"Type", "ID", "Name", "Param", "Text", "Params", "Raw", "Kind", "Message", "Severity", "Span", "Syntax", "Action", "CallID", "Choice", "Exact"}
	if !slices.Equal(fields, known) {
		t.Fatalf("Event fields %v, the JSON writers know %v: write the new field in Event.WriteJSON and legacyEvent", fields, known)
	}
	s := "a<b>&\"\\\n\t\x01 é \u2028 \xff"
	sp := ast.Span{Start: ast.Pos{Offset: 1, Line: 2, Col: 3}, End: ast.Pos{Offset: 4, Line: 5, Col: 6}}
	for typ := Type(0); typ <= End+1; typ++ {
		full := Event{Type: typ, ID: 7, CallID: s, Choice: 2, Exact: true, Name: s, Param: s, Text: s, Raw: s + "r", Kind: s, Message: s, Severity: ast.Warning, Span: sp, Syntax: s,
			Params: ast.Params{{Name: "a<", Value: s}, {Name: "n", Value: int64(3)}, {Name: "l", Value: []any{1.5, nil, map[string]any{"k": true}}}},
			Action: &ast.Action{Name: "x"}}
		checkEventJSON(t, typ.String()+"/full", full)
		checkEventJSON(t, typ.String()+"/zero", Event{Type: typ})
		same := full
		same.Raw = same.Text
		same.Params = ast.Params{}
		checkEventJSON(t, typ.String()+"/raw=text", same)
	}
}

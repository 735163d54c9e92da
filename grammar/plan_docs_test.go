package grammar

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestPlanDocsExamples checks every example of docs/plan.md: the plan after
// `<!-- example -->` is parsed as a plan, and its actions (names and params)
// and diagnostic codes must equal the JSON block after it.
func TestPlanDocsExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/plan.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := docExample.FindAllStringSubmatch(string(data), -1)
	if len(examples) < 8 {
		t.Fatalf("docs/plan.md: %d examples found, want at least 8", len(examples))
	}
	for i, m := range examples {
		src := []byte(m[2] + "\n")
		doc, err := Parse(context.Background(), "example.md", src, Options{Dialect: DialectPlan})
		if err != nil {
			t.Fatal(err)
		}
		checkPlanLossless(t, src, doc)
		var want any
		if err := json.Unmarshal([]byte(m[3]), &want); err != nil {
			t.Fatalf("example %d: bad expectation: %v", i+1, err)
		}
		if got := summary(t, doc); !reflect.DeepEqual(got, want) {
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			t.Errorf("docs/plan.md example %d:\n got %s\nwant %s", i+1, gotJSON, wantJSON)
		}
	}
}

package number

import (
	"fmt"
	"testing"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 65536: "65,536", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func ExampleThousands() {
	fmt.Println(Thousands(80559))
	// Output: 80,559
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files", 1234: "1234 files"} {
		if got := Plural(n, "file"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Plural(int64(1), "byte"); got != "1 byte" {
		t.Errorf("Plural(int64(1)) = %q", got)
	}
	if got := Noun(3, "node"); got != "nodes" {
		t.Errorf("Noun(3) = %q", got)
	}
}

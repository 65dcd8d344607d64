package process

import (
	"strings"
	"testing"
)

func TestReadableExpandsLogRecords(t *testing.T) {
	in := []string{
		`{"ts":"2026-12-01T19:50:15.224Z","level":"error","msg":"handler failed","method":"tool/call","id":2,"tool":"hello_world","traceback":"Traceback (most recent call last):\n  File \"x.py\", line 5, in hello\n    return d[\"customer_id\"]\nKeyError: 'customer_id'\n"}`,
		`plain text stays`,
		`{"not":"a log record"}`,
		`{broken json`,
	}
	got := strings.Join(Readable(in), "\n")
	want := strings.Join([]string{
		`ERROR handler failed id=2 method=tool/call tool=hello_world`,
		`  traceback:`,
		`    Traceback (most recent call last):`,
		`      File "x.py", line 5, in hello`,
		`        return d["customer_id"]`,
		`    KeyError: 'customer_id'`,
		`plain text stays`,
		`{"not":"a log record"}`,
		`{broken json`,
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

package target

import (
	"encoding/json"
	"testing"
)

// HelloCall accepts exactly the hello-world examples' answer and refuses anything else,
// so a hello-world that greets differently (or a fixture started by mistake) fails the run
// instead of being timed.
func TestHelloCallChecksTheExactAnswer(t *testing.T) {
	ok := `{"content":[{"type":"text","text":"Hello, octet-bench-0123456789!"}]}`
	if err := HelloCall.Check(json.RawMessage(ok)); err != nil {
		t.Fatalf("the right answer was refused: %v", err)
	}
	for name, res := range map[string]string{
		"other name":  `{"content":[{"type":"text","text":"Hello, world!"}]}`,
		"extra text":  `{"content":[{"type":"text","text":"Hello, octet-bench-0123456789!!"}]}`,
		"two parts":   `{"content":[{"type":"text","text":"Hello, octet-bench-0123456789!"},{"type":"text","text":"x"}]}`,
		"not text":    `{"content":[{"type":"image","text":"Hello, octet-bench-0123456789!"}]}`,
		"an error":    `{"content":[{"type":"text","text":"Hello, octet-bench-0123456789!"}],"is_error":true}`,
		"echo answer": `{"content":[{"type":"text","text":"octet-bench-0123456789"}]}`,
		"API 0.1":     `{"content":"Hello, octet-bench-0123456789!"}`,
	} {
		if err := HelloCall.Check(json.RawMessage(res)); err == nil {
			t.Errorf("%s: %s was accepted", name, res)
		}
	}
	var args struct{ Name string }
	if err := json.Unmarshal(HelloCall.Args, &args); err != nil || args.Name != EchoValue {
		t.Errorf("HelloCall.Args = %s, want the name %q", HelloCall.Args, EchoValue)
	}
}

func TestEchoCallNeedsTheValue(t *testing.T) {
	if err := EchoCall.Check(json.RawMessage(`{"content":[{"type":"text","text":"` + EchoValue + `"}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := EchoCall.Check(json.RawMessage(`{"content":[{"type":"text","text":"other"}]}`)); err == nil {
		t.Fatal("an echo without the value was accepted")
	}
}

package walkthrough_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// TestServiceAPIsAreTheSameInEveryLanguage: the Go, Python and TypeScript SDKs offer the same
// service objects with the same operations and positional arguments in the same order. Each
// SDK's own parity test holds it against schema/methods.json and schema/sdk-surface.json;
// this one compares what the three actually expose, side by side, so a language whose own
// test was weakened still cannot drift.
func TestServiceAPIsAreTheSameInEveryLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the three SDKs' surface dumps")
	}
	abs, _ := filepath.Abs(root)
	py := filepath.Join(abs, ".venv", "bin", "python")
	js := filepath.Join(abs, "sdk-typescript", "dist", "src", "apisurface.js")
	for _, p := range []string{py, js} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s missing (go run mage.go pythonEnv buildTypeScript)", p)
		}
	}
	dump := func(name string, args ...string) map[string]map[string][]string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = abs
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		var s map[string]map[string][]string
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatalf("%s %v printed no surface: %v", name, args, err)
		}
		if len(s) == 0 {
			t.Fatalf("%s %v printed an empty surface", name, args)
		}
		return s
	}
	goSurface := dump("go", "-C", "sdk-go", "run", "./internal/apisurface")
	for lang, s := range map[string]map[string]map[string][]string{
		"Python":     dump(py, "-m", "octet_extension._apisurface"),
		"TypeScript": dump("node", js),
	} {
		for svc, ops := range goSurface {
			for op, args := range ops {
				other, ok := s[svc][op]
				if !ok {
					t.Errorf("%s lacks %s.%s, which Go offers", lang, svc, op)
				} else if !reflect.DeepEqual(normal(other), normal(args)) {
					t.Errorf("%s.%s: Go takes %v, %s %v", svc, op, args, lang, other)
				}
			}
		}
		for svc, ops := range s {
			for op := range ops {
				if _, ok := goSurface[svc][op]; !ok {
					t.Errorf("%s offers %s.%s, which Go lacks", lang, svc, op)
				}
			}
		}
	}
}

func normal(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

package host_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host"
)

// The shared number corpus (schema/vectors/numbers): the host judges an author's tool
// schema as the three SDKs do. An integral 7.0 is an integer, 1.5 is not, and integers
// beyond 2^53 are exact: every vector gets the SDKs' verdict, and an invalid one the same
// pointer and keyword (the host words its reasons with its own validator).
func TestNumberVectorsJudgedAsTheSDKsJudge(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "schema", "vectors", "numbers", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no number vectors (%v)", err)
	}
	n := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Description      string
			Schema, Instance json.RawMessage
			Valid            bool
			Pointer, Keyword string
		}
		if err := json.Unmarshal(raw, &vs); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, v := range vs {
			n++
			f, err := host.JudgeSchema(v.Schema, v.Instance)
			if err != nil {
				t.Errorf("%s: %s: %v", filepath.Base(file), v.Description, err)
				continue
			}
			switch {
			case v.Valid && f != nil:
				t.Errorf("%s: %s: want valid, the host refuses %+v", filepath.Base(file), v.Description, *f)
			case !v.Valid && f == nil:
				t.Errorf("%s: %s: want %s %s, the host accepts", filepath.Base(file), v.Description, v.Pointer, v.Keyword)
			case !v.Valid && (f.Pointer != v.Pointer || f.Keyword != v.Keyword):
				t.Errorf("%s: %s: the host gives %+v, want %s %s", filepath.Base(file), v.Description, *f, v.Pointer, v.Keyword)
			}
		}
	}
	t.Logf("%d number vectors judged", n)
}

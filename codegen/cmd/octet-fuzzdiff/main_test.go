package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testSeeds(t *testing.T) []seedDoc {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Join("..", "..", "..")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	seeds, err := loadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	return seeds
}

func corpus(seeds []seedDoc, seed uint64, n int) []string {
	g := newGen(seed, seeds, 128) // MAX_JSON_DEPTH; the corpus only aims near it
	var out []string
	for i := 0; i < n; i++ {
		typ, data := g.doc()
		out = append(out, typ+" "+string(data))
	}
	return out
}

// The corpus is a function of the seed: a disagreement found once is found again.
func TestCorpusIsDeterministicFromTheSeed(t *testing.T) {
	seeds := testSeeds(t)
	a, b, c := corpus(seeds, 42, 300), corpus(seeds, 42, 300), corpus(seeds, 43, 300)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatal("the same seed made two different corpora")
	}
	if strings.Join(a, "\n") == strings.Join(c, "\n") {
		t.Fatal("two seeds made the same corpus")
	}
	raw := map[string]bool{}
	for _, s := range seeds {
		raw[s.typ+" "+string(s.raw)] = true
	}
	mutated := 0
	for _, d := range a {
		if !raw[d] {
			mutated++
		}
	}
	if mutated < len(a)*3/4 {
		t.Fatalf("only %d of %d documents differ from the vectors; want most mutated", mutated, len(a))
	}
}

// One judge out of step is a disagreement, printed with the input and every verdict.
func TestDisagreementIsReported(t *testing.T) {
	cases := []fuzzCase{
		{ID: 0, Kind: "decode", Data: base64.StdEncoding.EncodeToString([]byte(`[1]`))},
		{ID: 1, Kind: "validate", Type: "RequestID", Data: base64.StdEncoding.EncodeToString([]byte(`1.0`))},
	}
	same := func(v string) []verdict { return []verdict{{ID: 0, Verdict: "ok:x"}, {ID: 1, Verdict: v}} }
	judges := map[string][]verdict{"go": same("invalid"), "python": same("invalid"), "typescript": same("invalid"), "oracle": same("invalid")}
	var out bytes.Buffer
	if got := disagreements(cases, judges, &out); len(got) != 0 {
		t.Fatalf("agreeing judges reported: %v", got)
	}
	judges["oracle"] = same("valid")
	got := disagreements(cases, judges, &out)
	if len(got) != 1 || got[0].ID != 1 || !strings.Contains(out.String(), `input "1.0"`) || !strings.Contains(out.String(), "oracle     valid") {
		t.Fatalf("got %v, printed:\n%s", got, out.String())
	}
}

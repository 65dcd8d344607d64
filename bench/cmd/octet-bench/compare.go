package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/bench/internal/target"
)

// compareTargets parses -compare: extra octet SDK targets, each LANG:ID=DIR, started like
// the fixture of LANG. On a shared machine only ratios taken within one run are steady, so
// an SDK change is judged by running its baseline and itself side by side, interleaved, each
// against the same floor (ID is prefixed with "octet-" and must not clash with a target).
func compareTargets(root, spec, via string) ([]target.Target, error) {
	if spec == "" {
		return nil, nil
	}
	env := langEnv(root)
	var out []target.Target
	for _, item := range strings.Split(spec, ",") {
		lang, rest, ok1 := strings.Cut(strings.TrimSpace(item), ":")
		id, dir, ok2 := strings.Cut(rest, "=")
		if !ok1 || !ok2 || id == "" || dir == "" || langTitle[lang] == "" {
			return nil, fmt.Errorf("-compare %q: want LANG:ID=DIR with LANG one of go, python, typescript", item)
		}
		dir, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		t := target.Target{ID: "octet-" + id, Name: "octet SDK (" + langTitle[lang] + ", " + id + ")", Lang: lang, Kind: target.SDK}
		if _, err := target.LoadExtension(dir); err != nil {
			t.Missing = err.Error()
		} else {
			octetStart(&t, dir, env[lang], via, target.EchoCall)
		}
		out = append(out, t)
	}
	return out, nil
}
